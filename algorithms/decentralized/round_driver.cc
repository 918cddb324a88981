#include "algorithms/decentralized/round_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <vector>

#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/check.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/rng.h"
#include "sim/topology.h"

namespace commsim {
namespace {

// The state of one run's rounds; handlers hold a pointer to it, and it outlives the engine's runs.
class Rounds {
 public:
  Rounds(const RunSetup& setup, const MixingMatrix& mixing, NodeRule& rule, Network& network)
      : setup_(setup),
        mixing_(mixing),
        rule_(rule),
        network_(network),
        pending_(rule.num_nodes()),
        computed_(rule.num_nodes()) {}

  void Begin(int64_t t) {
    t_ = t;
    bits_ = 0;
    combined_ = 0;
    for (int i = 0; i < rule_.num_nodes(); ++i) {
      pending_[i] = static_cast<int>(mixing_.neighbours(i).size());
      computed_[i] = 0;
    }
  }

  void Send(int from) {
    const Message& message = rule_.Step(from, t_);
    const int64_t wire_bits = message.payload_bits + setup_.header_bits;
    const std::vector<int>& nb = mixing_.neighbours(from);
    const Message* m = &message;
    if (setup_.broadcast) {
      bits_ += wire_bits;
      network_.Multicast(from, nb, wire_bits, [this, from, m](int to) { Receive(to, from, *m); });
    } else {
      for (int to : nb) {
        bits_ += wire_bits;
        network_.Send(from, to, wire_bits, [this, from, to, m] { Receive(to, from, *m); });
      }
    }
  }

  void ComputeDone(int node) {
    computed_[node] = 1;
    MaybeCombine(node);
  }

  int64_t bits() const { return bits_; }
  int combined() const { return combined_; }

 private:
  void Receive(int to, int from, const Message& message) {
    rule_.Deliver(to, mixing_.SlotOf(to, from), message);
    --pending_[to];
    MaybeCombine(to);
  }
  void MaybeCombine(int node) {
    if (computed_[node] && pending_[node] == 0) {
      rule_.Combine(node, t_);
      ++combined_;
    }
  }

  const RunSetup& setup_;
  const MixingMatrix& mixing_;
  NodeRule& rule_;
  Network& network_;
  std::vector<int> pending_;
  std::vector<char> computed_;
  int64_t t_ = 0;
  int64_t bits_ = 0;
  int combined_ = 0;
};

// One round's compute time of node i: the compute model on its effective batch (the scenario's
// batch capped at the node's shard, or the whole shard), 0 without a compute model.
SimTime ComputeTime(const RunSetup& setup, int i, Rng& rng) {
  if (setup.compute == nullptr) return SimTime();
  const int64_t shard = setup.objective != nullptr ? setup.objective->shard_size(i) : 1;
  const int64_t batch = setup.batch > 0 ? std::min(setup.batch, shard) : shard;
  return setup.compute->Sample(i, batch, rng);
}

}  // namespace

void RunRounds(const RunSetup& setup, const MixingMatrix& mixing, NodeRule& rule,
               RunRecorder& recorder, const RunRecorder::Evaluate& evaluate) {
  COMMSIM_CHECK(setup.topology != nullptr, "RunRounds needs a topology");
  const int n = rule.num_nodes();
  COMMSIM_CHECK(setup.topology->num_hosts() >= n && mixing.num_nodes() == n,
                "{} nodes, {} hosts, mixing over {}", n, setup.topology->num_hosts(),
                mixing.num_nodes());
  Engine engine;
  engine.set_max_events(static_cast<uint64_t>(setup.limits.max_events));
  Network network(engine, *setup.topology, setup.network);
  Rounds rounds(setup, mixing, rule, network);
  std::vector<Rng> compute_rng;
  compute_rng.reserve(n);
  for (int i = 0; i < n; ++i) compute_rng.emplace_back(setup.seed, i, "compute");

  for (int64_t it = 1; it <= setup.iterations; ++it) {
    IterationTiming timing;
    timing.start = engine.Now();
    try {
      rounds.Begin(it - 1);
      for (int i = 0; i < n; ++i) {
        const SimTime compute = ComputeTime(setup, i, compute_rng[i]);
        timing.compute = std::max(timing.compute, compute);
        if (rule.sends_before_compute()) {
          rounds.Send(i);
          engine.Schedule(compute, [&rounds, i] { rounds.ComputeDone(i); });
        } else {
          engine.Schedule(compute, [&rounds, i] {
            rounds.Send(i);
            rounds.ComputeDone(i);
          });
        }
      }
      engine.Run();
      COMMSIM_CHECK(rounds.combined() == n, "round {} ended with {} of {} nodes combined", it,
                    rounds.combined(), n);
      for (int i = 0; i < n; ++i) {
        if (!rule.x(i).allFinite()) {
          throw NonFiniteError(fmt::format("node {}'s model has a non-finite value", i));
        }
      }
    } catch (const std::exception& e) {
      timing.end = engine.Now();
      timing.bits_up = rounds.bits();
      const bool diverged = dynamic_cast<const NonFiniteError*>(&e) != nullptr;
      const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
      recorder.Stop(it, timing, diverged ? kStatusDiverged : kStatusError,
                    memory ? "out of memory" : e.what(), evaluate);
      return;
    }
    timing.end = engine.Now();
    timing.bits_up = rounds.bits();
    if (!recorder.EndIteration(it, timing, evaluate)) break;
  }
}

}  // namespace commsim
