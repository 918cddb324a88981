#include "algorithms/decentralized/round_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "algorithms/sync_rounds.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/check.h"
#include "sim/engine.h"
#include "sim/message_send.h"
#include "sim/network.h"
#include "sim/rng.h"
#include "sim/topology.h"

namespace commsim {
namespace {

// One round's compute time of node i: the compute model on its effective batch (the scenario's
// batch capped at the node's shard, or the whole shard), 0 without a compute model.
SimTime ComputeTime(const RunSetup& setup, int i, Rng& rng) {
  if (setup.compute == nullptr) return SimTime();
  const int64_t shard = setup.objective != nullptr ? setup.objective->shard_size(i) : 1;
  const int64_t batch = setup.batch > 0 ? std::min(setup.batch, shard) : shard;
  return setup.compute->Sample(i, batch, rng);
}

// The rounds of one run on one engine; handlers hold `this`, which outlives the engine's run.
class RoundDriver {
 public:
  RoundDriver(const RunSetup& setup, const MixingMatrix& mixing, NodeRule& rule,
              RunRecorder& recorder, const RunRecorder::Evaluate& evaluate)
      : setup_(setup),
        mixing_(mixing),
        rule_(rule),
        network_(engine_, *setup.topology, setup.network),
        rounds_(setup, engine_, recorder, evaluate, rule.num_nodes(),
                {.start = [this](int64_t k) { StartRound(k); },
                 .end_check = [this] { CheckModels(); }}),
        pending_(rule.num_nodes()),
        computed_(rule.num_nodes()) {
    engine_.set_max_events(static_cast<uint64_t>(setup.limits.max_events));
    for (int i = 0; i < rule.num_nodes(); ++i) compute_rngs_.emplace_back(setup.seed, i, "compute");
  }

  void Run() { rounds_.Run(); }

 private:
  // Round k (1-based) is the rule's round t = k - 1.
  void StartRound(int64_t k) {
    t_ = k - 1;
    IterationTiming& timing = rounds_.timing();
    for (int i = 0; i < rule_.num_nodes(); ++i) {
      pending_[i] = static_cast<int>(mixing_.neighbours(i).size());
      computed_[i] = 0;
    }
    for (int i = 0; i < rule_.num_nodes(); ++i) {
      const SimTime compute = ComputeTime(setup_, i, compute_rngs_[i]);
      timing.compute = std::max(timing.compute, compute);
      if (rule_.sends_before_compute()) {
        Send(i);
        engine_.Schedule(compute, [this, i] { ComputeDone(i); });
      } else {
        engine_.Schedule(compute, [this, i] {
          Send(i);
          ComputeDone(i);
        });
      }
    }
  }

  void Send(int from) {
    const SharedMessage message = Share(rule_.Step(from, t_));
    const int64_t wire_bits = message->payload_bits + setup_.header_bits;
    const std::vector<int>& nb = mixing_.neighbours(from);
    int64_t& bits = rounds_.timing().bits_up;
    if (setup_.broadcast) {
      bits += wire_bits;
      MulticastMessage(network_, from, nb, message, setup_.header_bits,
                       [this, from](int to, const SharedMessage& m) { Receive(to, from, *m); });
    } else {
      for (int to : nb) {
        bits += wire_bits;
        SendMessage(network_, from, to, message, setup_.header_bits,
                    [this, from, to](const SharedMessage& m) { Receive(to, from, *m); });
      }
    }
  }

  void ComputeDone(int node) {
    computed_[node] = 1;
    MaybeCombine(node);
  }
  void Receive(int to, int from, const Message& message) {
    rule_.Deliver(to, mixing_.SlotOf(to, from), message);
    --pending_[to];
    MaybeCombine(to);
  }
  void MaybeCombine(int node) {
    if (!computed_[node] || pending_[node] != 0) return;
    rule_.Combine(node, t_);
    rounds_.PartyDone();
  }
  void CheckModels() const {
    for (int i = 0; i < rule_.num_nodes(); ++i) {
      if (!rule_.x(i).allFinite()) {
        throw NonFiniteError(fmt::format("node {}'s model has a non-finite value", i));
      }
    }
  }

  const RunSetup& setup_;
  const MixingMatrix& mixing_;
  NodeRule& rule_;
  Engine engine_;
  Network network_;
  SyncRounds rounds_;
  std::vector<int> pending_;
  std::vector<char> computed_;
  std::vector<Rng> compute_rngs_;
  int64_t t_ = 0;
};

}  // namespace

void RunRounds(const RunSetup& setup, const MixingMatrix& mixing, NodeRule& rule,
               RunRecorder& recorder, const RunRecorder::Evaluate& evaluate) {
  COMMSIM_CHECK(setup.topology != nullptr, "RunRounds needs a topology");
  const int n = rule.num_nodes();
  COMMSIM_CHECK(setup.topology->num_hosts() >= n && mixing.num_nodes() == n,
                "{} nodes, {} hosts, mixing over {}", n, setup.topology->num_hosts(),
                mixing.num_nodes());
  RoundDriver driver(setup, mixing, rule, recorder, evaluate);
  driver.Run();
}

}  // namespace commsim
