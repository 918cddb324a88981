// The flow model's incremental solve (the touched component only, completion instants in a heap)
// against the reference that re-solves every flow in flight at every change by a scan of every
// link (Network::UseReferenceFlowSolver): random topologies, random traffic with sends chained
// from deliveries, with and without TCP slow start. Every delivery, its instant and the engine's
// event count must be the same.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <tuple>
#include <vector>

#include "base/rng.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology.h"

namespace commsim {
namespace {

template <class T>
T Pick(Rng& rng, std::initializer_list<T> values) {
  return values.begin()[rng.UniformInt(values.size())];
}

// A connected graph of 2..12 hosts and 0..4 switches: a random spanning tree plus random extra
// edges, bandwidths and latencies drawn from a few values so that shares and routes tie often.
Topology RandomTopology(Rng& rng) {
  TopologyShape shape;
  shape.kind = "random";
  shape.num_hosts = 2 + static_cast<int>(rng.UniformInt(11));
  shape.num_switches = static_cast<int>(rng.UniformInt(5));
  const int nodes = shape.num_hosts + shape.num_switches;
  auto edge = [&](int a, int b) {
    shape.edges.push_back({a, b, Pick(rng, {1e9, 1e9, 2e9, 5e8, 1e10, 3e9}),
                           Pick(rng, {0.0, 1e-6, 1e-6, 5e-6, 1.3e-5})});
  };
  for (int v = 1; v < nodes; ++v) edge(v, static_cast<int>(rng.UniformInt(v)));
  const int extra = static_cast<int>(rng.UniformInt(nodes));
  for (int k = 0; k < extra; ++k) {
    const int a = static_cast<int>(rng.UniformInt(nodes));
    const int b = static_cast<int>(rng.UniformInt(nodes));
    if (a != b) edge(a, b);
  }
  shape.spread_equal_cost = rng.UniformInt(2) == 1;
  return Topology::Create(shape);
}

// (message, destination, delivery instant in ps), in the order deliveries ran.
using Delivery = std::tuple<int, int, int64_t>;

struct Outcome {
  std::vector<Delivery> deliveries;
  uint64_t events = 0;
};

// Replays the traffic drawn from `seed` on `topology`; about one delivery in four sends a
// follow-up message from the destination, so later arrivals depend on earlier completions.
Outcome RunTrial(const Topology& topology, uint64_t seed, bool slow_start, bool reference) {
  Engine engine;
  NetworkOptions options;
  options.model = NetworkModel::kFlow;
  if (slow_start) {
    options.protocol.kind = ProtocolKind::kTcp;
    options.protocol.tcp_slow_start = true;
  }
  Network net(engine, topology, options);
  if (reference) net.UseReferenceFlowSolver();
  Outcome out;
  Rng rng(seed);
  const uint64_t hosts = static_cast<uint64_t>(topology.num_hosts());
  int next_message = 0;
  std::function<void(int, int)> send = [&](int src, int follow_ups) {
    const int message = next_message++;
    const int64_t bits = Pick<int64_t>(rng, {0, 12'000, 100'000, 1'000'000, 2'000'000, 777'777});
    auto delivered = [&, message, follow_ups](int dst) {
      out.deliveries.emplace_back(message, dst, engine.Now().ps());
      if (follow_ups > 0 && rng.UniformInt(4) == 0) send(dst, follow_ups - 1);
    };
    if (rng.UniformInt(5) == 0) {
      std::vector<int> dsts;
      for (int h = 0; h < static_cast<int>(hosts); ++h) {
        if (rng.UniformInt(2) == 0) dsts.push_back(h);
      }
      if (dsts.empty()) dsts.push_back(static_cast<int>(rng.UniformInt(hosts)));
      net.Multicast(src, dsts, bits, delivered);
    } else {
      const int dst = static_cast<int>(rng.UniformInt(hosts));
      net.Send(src, dst, bits, [delivered, dst] { delivered(dst); });
    }
  };
  const int messages = 20 + static_cast<int>(rng.UniformInt(100));
  for (int i = 0; i < messages; ++i) {
    // Many sends share an instant (a multiple of 10 us), so flows start and end together.
    const SimTime at = SimTime::FromNs(10'000 * static_cast<int64_t>(rng.UniformInt(30)));
    const int src = static_cast<int>(rng.UniformInt(hosts));
    engine.ScheduleAt(at, [&send, src] { send(src, 3); });
  }
  engine.Run();
  out.events = engine.events_processed();
  return out;
}

// -1 when a == b, else the index of the first delivery that differs (the shorter length when
// one is a prefix of the other).
int64_t FirstDifference(const std::vector<Delivery>& a, const std::vector<Delivery>& b) {
  if (a == b) return -1;
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return static_cast<int64_t>(i);
}

TEST(FlowIncrementalTest, SameDeliveriesAsTheReferenceSolverOnRandomTraffic) {
  int deliveries = 0;
  for (uint64_t trial = 0; trial < 300; ++trial) {
    Rng rng(DeriveSeed(42, trial, "flow_incremental"));
    const Topology topology = RandomTopology(rng);
    const uint64_t traffic_seed = DeriveSeed(42, trial, "traffic");
    const bool slow_start = trial % 3 == 0;
    const Outcome reference = RunTrial(topology, traffic_seed, slow_start, true);
    const Outcome incremental = RunTrial(topology, traffic_seed, slow_start, false);
    ASSERT_EQ(FirstDifference(incremental.deliveries, reference.deliveries), -1)
        << "trial " << trial << ": the deliveries differ from this one on";
    ASSERT_EQ(incremental.events, reference.events) << "trial " << trial;
    deliveries += static_cast<int>(reference.deliveries.size());
  }
  EXPECT_GT(deliveries, 10'000);  // the trials did deliver traffic
}

}  // namespace
}  // namespace commsim
