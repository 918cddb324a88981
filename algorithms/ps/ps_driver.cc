#include "algorithms/ps/ps_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <new>

#include "algorithms/run_recorder.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/check.h"
#include "sim/engine.h"
#include "sim/error.h"
#include "sim/network.h"
#include "sim/topology.h"

namespace commsim {
namespace {

class PsDriver {
 public:
  PsDriver(const RunSetup& setup, PsRule& rule)
      : setup_(setup),
        rule_(rule),
        objective_(*setup.objective),
        network_(engine_, *setup.topology, setup.network),
        recorder_(setup, "", "parameter_server") {
    COMMSIM_CHECK(setup.topology->server().has_value(), "parameter server needs a server host");
    engine_.set_max_events(static_cast<uint64_t>(setup.limits.max_events));
    server_ = *setup.topology->server();
    // The workers are every host but the server, in host order (the server may be any host).
    for (int h = 0; h < setup.topology->num_hosts(); ++h) {
      if (h != server_) worker_hosts_.push_back(h);
    }
    workers_ = static_cast<int>(worker_hosts_.size());
    COMMSIM_CHECK(workers_ == objective_.num_workers(), "{} worker hosts, {} shards", workers_,
                  objective_.num_workers());
    worker_of_host_.assign(setup.topology->num_hosts(), -1);
    for (int w = 0; w < workers_; ++w) {
      worker_of_host_[worker_hosts_[w]] = w;
      batch_rngs_.emplace_back(setup.seed, w, "batch");
      encode_rngs_.emplace_back(setup.seed, w, "uplink");
      compute_rngs_.emplace_back(setup.seed, w, "compute");
    }
    server_rng_ = std::make_unique<Rng>(setup.seed, server_, "downlink");
    uplinks_.resize(workers_);
    grad_.resize(objective_.dim());
  }

  void Run(std::vector<IterationRecord>* records, RunSummary* summary) {
    Eigen::VectorXd x0(objective_.dim());
    Rng init_rng(setup_.seed, 0, "init");
    objective_.InitialPoint(init_rng, x0);
    rule_.Init(workers_, x0, objective_);
    const RunRecorder::Evaluate evaluate = [this](IterationRecord& r) { Evaluate(r); };
    recorder_.Start(evaluate);
    // Iteration 0 may already show divergence (e.g. a NaN initial loss): then nothing runs.
    try {
      if (setup_.iterations > 0 && !recorder_.stopped()) StartRound(1);
      engine_.Run();
    } catch (const NonFiniteError& e) {
      StopRound(kStatusDiverged, e.what());
    } catch (const std::bad_alloc&) {
      StopRound(kStatusError, "out of memory");
    } catch (const std::exception& e) {
      StopRound(kStatusError, e.what());
    }
    recorder_.Finish(records, summary);
  }

 private:
  // Ends the run inside the current round (the engine stopped with an exception).
  void StopRound(const char* status, const std::string& message) {
    timing_.end = engine_.Now();
    const RunRecorder::Evaluate evaluate = [this](IterationRecord& r) { Evaluate(r); };
    recorder_.Stop(round_, timing_, status, message, evaluate);
  }

  int64_t BatchFor(int w) const {
    const int64_t shard = objective_.shard_size(w);
    return setup_.batch <= 0 ? shard : std::min(setup_.batch, shard);
  }

  void StartRound(int64_t k) {
    round_ = k;
    round_start_ = engine_.Now();
    step_ = setup_.step.At(k - 1);
    arrived_ = 0;
    applied_ = 0;
    timing_ = IterationTiming{};
    timing_.start = round_start_;
    for (int w = 0; w < workers_; ++w) {
      const SimTime compute = setup_.compute->Sample(w, BatchFor(w), compute_rngs_[w]);
      timing_.compute = std::max(timing_.compute, compute);
      engine_.Schedule(compute, [this, w] { WorkerSend(w); });
    }
  }

  void WorkerSend(int w) {
    objective_.Gradient(w, rule_.WorkerPoint(w), BatchFor(w), batch_rngs_[w], grad_);
    if (!grad_.allFinite()) {
      throw NonFiniteError(fmt::format("worker {}'s gradient has a non-finite value", w));
    }
    uplinks_[w] = rule_.WorkerEncode(w, grad_, step_, encode_rngs_[w]);
    const int64_t bits = uplinks_[w].payload_bits + setup_.header_bits;
    timing_.bits_up += bits;
    network_.Send(worker_hosts_[w], server_, bits, [this] { UplinkArrived(); });
  }

  void UplinkArrived() {
    if (++arrived_ < workers_) return;
    downlink_ = rule_.ServerRound(uplinks_, step_, *server_rng_);
    rule_.DecodeDownlink(downlink_);
    const int64_t bits = downlink_.payload_bits + setup_.header_bits;
    if (setup_.multicast_downlink) {
      timing_.bits_down += bits;
      network_.Multicast(server_, worker_hosts_, bits,
                         [this](int host) { WorkerApply(worker_of_host_[host]); });
    } else {
      for (int w = 0; w < workers_; ++w) {
        timing_.bits_down += bits;
        network_.Send(server_, worker_hosts_[w], bits, [this, w] { WorkerApply(w); });
      }
    }
  }

  void WorkerApply(int w) {
    rule_.WorkerApply(w, step_);
    if (++applied_ < workers_) return;
    timing_.end = engine_.Now();
    if (!rule_.Model().allFinite()) throw NonFiniteError("the model has a non-finite value");
    const RunRecorder::Evaluate evaluate = [this](IterationRecord& r) { Evaluate(r); };
    const bool go_on = recorder_.EndIteration(round_, timing_, evaluate);
    if (go_on && round_ < setup_.iterations) StartRound(round_ + 1);
  }

  void Evaluate(IterationRecord& r) const {
    const Eigen::VectorXd& x = rule_.Model();
    r.loss = objective_.Loss(x);
    if (const Optimum* opt = objective_.optimum()) r.dist_to_opt_sq = (x - opt->x).squaredNorm();
    r.test_accuracy = objective_.TestAccuracy(x);
    rule_.Extra(r.extra);
  }

  const RunSetup& setup_;
  PsRule& rule_;
  const Objective& objective_;
  Engine engine_;
  Network network_;
  RunRecorder recorder_;
  int server_ = 0;
  int workers_ = 0;
  std::vector<int> worker_hosts_;    // worker index -> host
  std::vector<int> worker_of_host_;  // host -> worker index (-1 for the server)
  std::vector<Rng> batch_rngs_, encode_rngs_, compute_rngs_;
  std::unique_ptr<Rng> server_rng_;
  std::vector<Message> uplinks_;
  Message downlink_;
  Eigen::VectorXd grad_;
  int64_t round_ = 0;
  SimTime round_start_;
  double step_ = 0;
  int arrived_ = 0;
  int applied_ = 0;
  IterationTiming timing_;
};

}  // namespace

void CheckParameterServer(const RunSetup& setup) {
  COMMSIM_CHECK(setup.topology != nullptr && setup.objective != nullptr, "incomplete RunSetup");
  const Topology& t = *setup.topology;
  if (!t.server().has_value()) {
    throw UserError(fmt::format(
        "a parameter-server algorithm needs a topology with a server (star, star_direct, or "
        "explicit with \"server\"), got {}",
        t.kind()));
  }
  const int workers = t.num_hosts() - 1;
  if (workers != setup.objective->num_workers()) {
    throw UserError(fmt::format(
        "topology {} has {} hosts besides the server (host {}) but the scenario has {} workers; "
        "they must agree",
        t.kind(), workers, *t.server(), setup.objective->num_workers()));
  }
}

void RunParameterServer(const RunSetup& setup, PsRule& rule, std::vector<IterationRecord>* records,
                        RunSummary* summary) {
  PsDriver driver(setup, rule);
  driver.Run(records, summary);
}

}  // namespace commsim
