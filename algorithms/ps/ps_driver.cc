#include "algorithms/ps/ps_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "algorithms/run_recorder.h"
#include "algorithms/sync_rounds.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/check.h"
#include "sim/engine.h"
#include "sim/error.h"
#include "sim/message_send.h"
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
        recorder_(setup, "", Family::kParameterServer),
        rounds_(setup, engine_, recorder_, [this](IterationRecord& r) { Evaluate(r); },
                objective_.num_workers(),
                {.start = [this](int64_t k) { StartRound(k); },
                 .end_check =
                     [this] {
                       if (!rule_.Model().allFinite()) {
                         throw NonFiniteError("the model has a non-finite value");
                       }
                     }}) {
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
    inbox_.resize(workers_);
    grad_.resize(objective_.dim());
  }

  void Run(std::vector<IterationRecord>* records, RunSummary* summary) {
    Eigen::VectorXd x0(objective_.dim());
    Rng init_rng(setup_.seed, 0, "init");
    objective_.InitialPoint(init_rng, x0);
    rule_.Init(workers_, x0, objective_);
    recorder_.Start([this](IterationRecord& r) { Evaluate(r); });
    rounds_.Run();
    recorder_.Finish(records, summary);
  }

 private:

  int64_t BatchFor(int w) const {
    const int64_t shard = objective_.shard_size(w);
    return setup_.batch <= 0 ? shard : std::min(setup_.batch, shard);
  }

  void StartRound(int64_t k) {
    step_ = setup_.step.At(k - 1);
    next_uplink_ = 0;
    IterationTiming& timing = rounds_.timing();
    for (int w = 0; w < workers_; ++w) {
      const SimTime compute = setup_.compute->Sample(w, BatchFor(w), compute_rngs_[w]);
      timing.compute = std::max(timing.compute, compute);
      engine_.Schedule(compute, [this, w] { WorkerSend(w); });
    }
  }

  void WorkerSend(int w) {
    objective_.Gradient(w, rule_.WorkerPoint(w), BatchFor(w), batch_rngs_[w], grad_);
    if (!grad_.allFinite()) {
      throw NonFiniteError(fmt::format("worker {}'s gradient has a non-finite value", w));
    }
    SharedMessage uplink = Share(rule_.WorkerEncode(w, grad_, step_, encode_rngs_[w]));
    rounds_.timing().bits_up += uplink->payload_bits + setup_.header_bits;
    SendMessage(network_, worker_hosts_[w], server_, std::move(uplink), setup_.header_bits,
                [this, w](const SharedMessage& m) { ServerReceive(w, m); });
  }

  // The server takes the uplinks in worker order: one that arrives before a lower-numbered
  // worker's waits, still encoded, in its inbox. After the last it answers.
  void ServerReceive(int w, const SharedMessage& uplink) {
    inbox_[w] = uplink;
    for (; next_uplink_ < workers_ && inbox_[next_uplink_]; ++next_uplink_) {
      rule_.ServerReceive(next_uplink_, *inbox_[next_uplink_]);
      inbox_[next_uplink_].reset();
    }
    if (next_uplink_ < workers_) return;
    const SharedMessage downlink = Share(rule_.ServerRound(step_, *server_rng_));
    const int64_t bits = downlink->payload_bits + setup_.header_bits;
    if (setup_.multicast_downlink) {
      rounds_.timing().bits_down += bits;
      MulticastMessage(network_, server_, worker_hosts_, downlink, setup_.header_bits,
                       [this](int host, const SharedMessage& m) {
                         WorkerReceive(worker_of_host_[host], *m);
                       });
    } else {
      for (int w = 0; w < workers_; ++w) {
        rounds_.timing().bits_down += bits;
        SendMessage(network_, server_, worker_hosts_[w], downlink, setup_.header_bits,
                    [this, w](const SharedMessage& m) { WorkerReceive(w, *m); });
      }
    }
  }

  // Worker w decodes the downlink itself and applies it.
  void WorkerReceive(int w, const Message& downlink) {
    rule_.WorkerReceive(w, downlink, step_);
    rounds_.PartyDone();
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
  SyncRounds rounds_;
  int server_ = 0;
  int workers_ = 0;
  std::vector<int> worker_hosts_;    // worker index -> host
  std::vector<int> worker_of_host_;  // host -> worker index (-1 for the server)
  std::vector<Rng> batch_rngs_, encode_rngs_, compute_rngs_;
  std::unique_ptr<Rng> server_rng_;
  std::vector<SharedMessage> inbox_;  // the server's: uplinks waiting for a lower worker's
  Eigen::VectorXd grad_;
  double step_ = 0;
  int next_uplink_ = 0;  // the worker whose uplink the server takes next
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
