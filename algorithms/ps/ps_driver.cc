#include "algorithms/ps/ps_driver.h"

#include <algorithm>
#include <memory>

#include "algorithms/run_recorder.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/check.h"
#include "sim/engine.h"
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
        network_(engine_, *setup.topology,
                 NetworkOptions{.mtu_bits = setup.mtu_bits,
                                .max_packets_per_message = setup.limits.max_packets_per_message}),
        recorder_(setup, "", "parameter_server") {
    COMMSIM_CHECK(setup.topology->server().has_value(), "parameter server needs a server host");
    engine_.set_max_events(static_cast<uint64_t>(setup.limits.max_events));
    server_ = *setup.topology->server();
    workers_ = server_;  // hosts 0..n-1 are the workers
    for (int w = 0; w < workers_; ++w) {
      batch_rngs_.emplace_back(setup.seed, w, "batch");
      encode_rngs_.emplace_back(setup.seed, w, "uplink");
      compute_rngs_.emplace_back(setup.seed, w, "compute");
      worker_ids_.push_back(w);
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
    if (setup_.iterations > 0 && summary_status_ok()) StartRound(1);
    engine_.Run();
    recorder_.Finish(records, summary);
  }

 private:
  // Iteration 0 may already show divergence (e.g. a NaN initial loss): then nothing runs.
  bool summary_status_ok() const { return !recorder_.diverged(); }

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
    objective_.Gradient(w, rule_.WorkerPoint(w), setup_.batch, batch_rngs_[w], grad_);
    uplinks_[w] = rule_.WorkerEncode(w, grad_, step_, encode_rngs_[w]);
    const int64_t bits = uplinks_[w].payload_bits + setup_.header_bits;
    timing_.bits_up += bits;
    network_.Send(w, server_, bits, [this] { UplinkArrived(); });
  }

  void UplinkArrived() {
    if (++arrived_ < workers_) return;
    downlink_ = rule_.ServerRound(uplinks_, step_, *server_rng_);
    rule_.DecodeDownlink(downlink_);
    const int64_t bits = downlink_.payload_bits + setup_.header_bits;
    if (setup_.multicast_downlink) {
      timing_.bits_down += bits;
      network_.Multicast(server_, worker_ids_, bits, [this](int w) { WorkerApply(w); });
    } else {
      for (int w = 0; w < workers_; ++w) {
        timing_.bits_down += bits;
        network_.Send(server_, w, bits, [this, w] { WorkerApply(w); });
      }
    }
  }

  void WorkerApply(int w) {
    rule_.WorkerApply(w, step_);
    if (++applied_ < workers_) return;
    timing_.end = engine_.Now();
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
  std::vector<int> worker_ids_;
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

void RunParameterServer(const RunSetup& setup, PsRule& rule, std::vector<IterationRecord>* records,
                        RunSummary* summary) {
  PsDriver driver(setup, rule);
  driver.Run(records, summary);
}

}  // namespace commsim
