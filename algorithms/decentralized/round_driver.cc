#include "algorithms/decentralized/round_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms/codec_time.h"
#include "algorithms/decentralized/node_work.h"
#include "algorithms/message_send.h"
#include "algorithms/sync_rounds.h"
#include "algorithms/trajectory.h"
#include "base/check.h"
#include "base/rng.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology.h"

namespace commsim {
namespace {

// One round's compute time of node i: the compute model on its effective batch (the scenario's
// batch capped at the node's shard, or the whole shard), 0 without a compute model.
SimTime ComputeTime(const RunSetup& setup, int i, Rng& rng) {
  if (setup.compute == nullptr) return SimTime();
  // Without an objective (timing tests) a node's shard is one sample.
  const int64_t batch = setup.objective != nullptr ? EffectiveBatch(setup, *setup.objective, i) : 1;
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
        work_(setup, mixing, rule),
        // A stop inside a round first settles the nodes that had combined (node_work.h).
        rounds_(
            setup, engine_, recorder,
            [this, &evaluate](IterationRecord& r) {
              work_.Settle(t_);
              evaluate(r);
            },
            rule.num_nodes(),
            {.start = [this](int64_t k) { StartRound(k); }, .end_check = [this] { EndRound(); }}),
        clock_(setup.codec),
        pending_(rule.num_nodes()),
        computed_(rule.num_nodes()),
        lanes_(rule.num_nodes(), CodecLanes(1)),
        ready_(rule.num_nodes()) {
    ConfigureEngine(engine_, setup);
    for (int i = 0; i < rule.num_nodes(); ++i) compute_rngs_.emplace_back(setup.seed, i, "compute");
  }

  void Run() { rounds_.Run(); }

 private:
  template <class F>
  void At(SimTime t, F&& f) {
    RunAt(engine_, t, std::forward<F>(f));
  }

  // Round k (1-based) is the rule's round t = k - 1.
  void StartRound(int64_t k) {
    t_ = k - 1;
    IterationTiming& timing = rounds_.timing();
    for (int i = 0; i < rule_.num_nodes(); ++i) {
      pending_[i] = static_cast<int>(mixing_.neighbours(i).size());
      computed_[i] = 0;
      lanes_[i].Reset(engine_.Now());
      ready_[i] = Stamp{engine_.Now(), SimTime()};
    }
    work_.Steps(t_);  // every node's Step, on the run's threads; taken at the events below
    for (int i = 0; i < rule_.num_nodes(); ++i) {
      const SimTime compute = ComputeTime(setup_, i, compute_rngs_[i]);
      timing.compute = std::max(timing.compute, compute);
      if (rule_.sends_before_compute()) {
        Encode(i);
        engine_.Schedule(compute, [this, i] { ComputeDone(i); });
      } else {
        engine_.Schedule(compute, [this, i] {
          Encode(i);
          ComputeDone(i);
        });
      }
    }
  }

  // Node i encodes its message (its rule's Step) on its codec lane, then sends it.
  void Encode(int from) {
    double wall_s = 0;
    const SharedMessage message = work_.Take(from, &wall_s);
    if (setup_.record != nullptr) setup_.record->AddMessage(rounds_.round(), from, *message);
    const SimTime duration = clock_.Encode(*message, wall_s, message->elements);
    const Stamp sent = lanes_[from].Run(Stamp{engine_.Now(), SimTime()}, duration);
    At(sent.at, [this, from, message, codec = sent.codec] { Send(from, message, codec); });
  }

  void Send(int from, const SharedMessage& message, SimTime codec) {
    const std::vector<int>& nb = mixing_.neighbours(from);
    WireTally& tally = rounds_.timing().up;
    if (setup_.broadcast) {
      MulticastMessage(
          network_, from, nb, message, setup_.header_bits, tally,
          [this, from, codec](int to, const SharedMessage& m) { Arrive(to, from, *m, codec); });
    } else {
      for (int to : nb) {
        SendMessage(
            network_, from, to, message, setup_.header_bits, tally,
            [this, from, to, codec](const SharedMessage& m) { Arrive(to, from, *m, codec); });
      }
    }
  }

  void ComputeDone(int node) {
    computed_[node] = 1;
    ready_[node] = Later(ready_[node], Stamp{engine_.Now(), SimTime()});
    Aggregate(node);
  }
  // Node `to` decodes a neighbour's message on arrival (its rule's Deliver, applied now or when
  // the round settles), on its codec lane.
  void Arrive(int to, int from, const Message& message, SimTime codec) {
    const double wall_s = work_.Receive(to, from, message);
    const SimTime duration = clock_.Decode(message, wall_s, message.elements);
    const Stamp end = lanes_[to].Run(Stamp{engine_.Now(), codec}, duration);
    At(end.at, [this, to, end] {
      ready_[to] = Later(ready_[to], end);
      --pending_[to];
      Aggregate(to);
    });
  }
  void Aggregate(int node) {
    if (!computed_[node] || pending_[node] != 0) return;
    work_.Due(node);  // its Combine runs when the round settles
    rounds_.PartyDone(ready_[node].codec);
  }
  void EndRound() {
    work_.Settle(t_);
    if (const int i = work_.FirstNonFinite(); i >= 0) {
      throw NonFiniteError(fmt::format("node {}'s model has a non-finite value", i));
    }
  }

  const RunSetup& setup_;
  const MixingMatrix& mixing_;
  NodeRule& rule_;
  Engine engine_;
  Network network_;
  NodeWork work_;
  SyncRounds rounds_;
  CodecClock clock_;
  std::vector<int> pending_;
  std::vector<char> computed_;
  std::vector<CodecLanes> lanes_;  // one codec lane per node
  std::vector<Stamp> ready_;       // the latest of a node's compute end and decodes this round
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
