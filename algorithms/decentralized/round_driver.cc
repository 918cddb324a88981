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
        done_(rule.num_nodes()),
        lanes_(rule.num_nodes(), CodecLanes(1)),
        ready_(rule.num_nodes()) {
    ConfigureEngine(engine_, setup);
    for (int i = 0; i < rule.num_nodes(); ++i) {
      compute_rngs_.emplace_back(setup.seed, i, "compute");
      max_degree_ = std::max(max_degree_, static_cast<int>(mixing.neighbours(i).size()));
    }
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
    for (int i = 0; i < rule_.num_nodes(); ++i) computed_[i] = 0;
    path_codec_ = SimTime();
    StartExchange(0);
  }

  // Exchange e: every node's StepIn (on the run's threads; taken at the events below), the
  // compute of the nodes whose compute exchange it is, the sends.
  void StartExchange(int e) {
    e_ = e;
    exchange_done_ = 0;
    const int n = rule_.num_nodes();
    for (int i = 0; i < n; ++i) {
      lanes_[i].Reset(engine_.Now());
      ready_[i] = Stamp{engine_.Now(), path_codec_};
      done_[i] = 0;
    }
    work_.Steps(t_, e);
    for (int i = 0; i < n; ++i) {
      const std::vector<int>& nb = mixing_.neighbours(i);
      pending_[i] = 0;
      for (int j : nb) pending_[i] += work_.Sends(j, mixing_.SlotOf(j, i)) ? 1 : 0;
    }
    IterationTiming& timing = rounds_.timing();
    for (int i = 0; i < n; ++i) {
      if (rule_.compute_exchange(i) != e) {
        Encode(i);
        continue;
      }
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
    for (int i = 0; i < n; ++i) Aggregate(i);  // nodes that wait for nothing this exchange
  }

  // Node i encodes its messages (its rule's StepIn) on its codec lane, then sends them.
  void Encode(int from) {
    double wall_s = 0;
    const NodeWork::Sent& sent = work_.Take(from, &wall_s);
    const size_t count =
        (sent.all ? 1 : 0) +
        static_cast<size_t>(std::count_if(sent.each.begin(), sent.each.end(),
                                          [](const SharedMessage& m) { return m != nullptr; }));
    wall_s /= static_cast<double>(std::max<size_t>(count, 1));  // the step's wall time, shared
    if (sent.all) EncodeOne(from, -1, sent.all, wall_s);
    for (size_t k = 0; k < sent.each.size(); ++k) {
      if (sent.each[k] != nullptr) EncodeOne(from, static_cast<int>(k), sent.each[k], wall_s);
    }
  }
  // Message to neighbour slot k of `from` (k = -1: to every neighbour).
  void EncodeOne(int from, int k, const SharedMessage& message, double wall_s) {
    if (setup_.record != nullptr) {
      setup_.record->AddMessage(
          rounds_.round(), TrajectorySlot(rule_.num_nodes(), max_degree_, e_, from, k), *message);
    }
    const SimTime duration = clock_.Encode(*message, wall_s, message->elements);
    const Stamp sent = lanes_[from].Run(Stamp{engine_.Now(), SimTime()}, duration);
    At(sent.at, [this, from, k, message, codec = sent.codec] { Send(from, k, message, codec); });
  }

  void Send(int from, int k, const SharedMessage& message, SimTime codec) {
    const std::vector<int>& nb = mixing_.neighbours(from);
    WireTally& tally = rounds_.timing().up;
    auto arrive = [this, from, codec](int to, const SharedMessage& m) {
      Arrive(to, from, *m, codec);
    };
    if (k >= 0) {
      SendMessage(network_, from, nb[k], message, setup_.header_bits, tally,
                  [arrive, to = nb[k]](const SharedMessage& m) { arrive(to, m); });
    } else if (setup_.broadcast) {
      MulticastMessage(network_, from, nb, message, setup_.header_bits, tally, arrive);
    } else {
      for (int to : nb) {
        SendMessage(network_, from, to, message, setup_.header_bits, tally,
                    [arrive, to](const SharedMessage& m) { arrive(to, m); });
      }
    }
  }

  void ComputeDone(int node) {
    computed_[node] = 1;
    ready_[node] = Later(ready_[node], Stamp{engine_.Now(), SimTime()});
    Aggregate(node);
  }
  // Node `to` decodes a neighbour's message on arrival (its rule's DeliverIn, applied now or
  // when the exchange settles), on its codec lane.
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
  // A node's compute must have ended before it finishes its compute exchange (when it sends
  // after computing) and before the round's last exchange ends.
  bool NeedsCompute(int node) const {
    return e_ >= rule_.compute_exchange(node) &&
           (e_ + 1 == rule_.exchanges() || !rule_.sends_before_compute());
  }
  void Aggregate(int node) {
    if (done_[node] || pending_[node] != 0 || (NeedsCompute(node) && !computed_[node])) return;
    done_[node] = 1;
    work_.Due(node);  // its CombineIn runs when the exchange settles
    if (e_ + 1 == rule_.exchanges()) {
      rounds_.PartyDone(ready_[node].codec);
      return;
    }
    path_codec_ = ready_[node].codec;  // the last node's, when the exchange ends
    if (++exchange_done_ == rule_.num_nodes()) {
      SettleAndCheck();
      StartExchange(e_ + 1);
    }
  }
  void SettleAndCheck() {
    work_.Settle(t_);
    if (const int i = work_.FirstNonFinite(); i >= 0) {
      throw NonFiniteError(fmt::format("node {}'s model has a non-finite value", i));
    }
  }
  void EndRound() { SettleAndCheck(); }

  const RunSetup& setup_;
  const MixingMatrix& mixing_;
  NodeRule& rule_;
  Engine engine_;
  Network network_;
  NodeWork work_;
  SyncRounds rounds_;
  CodecClock clock_;
  std::vector<int> pending_;  // messages node i still waits for this exchange
  std::vector<char> computed_, done_;
  std::vector<CodecLanes> lanes_;  // one codec lane per node
  std::vector<Stamp> ready_;       // the latest of a node's compute end and decodes this round
  std::vector<Rng> compute_rngs_;
  int max_degree_ = 0;
  int64_t t_ = 0;
  int e_ = 0;              // the current exchange
  int exchange_done_ = 0;  // nodes done with it
  SimTime path_codec_;     // codec time on the critical path of the round's earlier exchanges
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
