// The flow model (NetworkModel::kFlow) against hand-computed completion times.
#include <gtest/gtest.h>

#include <functional>
#include <utility>
#include <vector>

#include "sim/network.h"
#include "sim/network_test_util.h"
#include "sim/topology_graph.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using net_test::Line;
using net_test::Ps;
using net_test::Sec;

NetworkOptions Flow(ProtocolOptions protocol = {}) {
  NetworkOptions o;
  o.model = NetworkModel::kFlow;
  o.protocol = protocol;
  return o;
}

Topology Star(int n, double worker_bps, double server_bps, double latency_s) {
  return net_test::Star(n, worker_bps, latency_s, server_bps, latency_s);
}

// Flows that start at one instant are solved once: an incast of n equal flows runs n activation
// events, one solve and one wake-up (the deliveries run inside it), whatever n, and every flow
// gets B/n.
TEST(FlowNetworkTest, FlowsStartingAtOneInstantAreSolvedOnce) {
  for (const int n : {3, 50, 400}) {
    const Topology t = Star(n, 1e9, 1e9, 10e-6);
    Engine engine;
    Network net(engine, t, Flow());
    std::vector<SimTime> at(n);
    for (int w = 0; w < n; ++w) net.Send(w, n, 8'000, [&, w] { at[w] = engine.Now(); });
    engine.Run();
    EXPECT_EQ(engine.events_processed(), static_cast<uint64_t>(n) + 2) << n;
    for (int w = 0; w < n; ++w) EXPECT_EQ(at[w], Ps(20'000'000 + int64_t{n} * 8'000'000)) << n;
  }
}

TEST(FlowNetworkTest, OneFlowTakesLatencyPlusSizeOverBandwidth) {
  const Topology t = Line(2, 1e9, 10e-6);
  Engine engine;
  Network net(engine, t, Flow());
  SimTime at;
  net.Send(0, 1, 8'000'000, [&] { at = engine.Now(); });
  engine.Run();
  EXPECT_EQ(at, Ps(10'000'000 + 8'000'000'000));  // 10 us + 8 ms
  EXPECT_EQ(net.link_stats(0).bits, 8'000'000);
  EXPECT_EQ(net.messages_in_flight(), 0);
}

// n equal flows through the server's link of a star, uploads to the server or unicast copies from
// it: each gets B/n, all end at 2l + n M / B (no store-and-forward at the switch, no packet
// pipelining term).
TEST(FlowNetworkTest, EqualFlowsThroughTheServerLinkEndTogetherBothWays) {
  const int n = 4;
  const Topology t = Star(n, 1e9, 1e9, 10e-6);
  for (const bool upload : {true, false}) {
    Engine engine;
    Network net(engine, t, Flow());
    std::vector<SimTime> at(n);
    for (int w = 0; w < n; ++w) {
      net.Send(upload ? w : n, upload ? n : w, 8'000'000, [&, w] { at[w] = engine.Now(); });
    }
    engine.Run();
    for (int w = 0; w < n; ++w) {
      EXPECT_EQ(at[w], Ps(20'000'000 + 32'000'000'000)) << "worker " << w << " upload " << upload;
    }
  }
}

// Flow 1 starts at 0, flow 2 at 2 ms, same link (B = 1 Gbps, l = 10 us, M = 8 Mbit each).
// By hand: flow 1 runs alone at B from l to 2 ms + l (2 Mbit drained), then both at B/2: flow 1's
// remaining 6 Mbit take 12 ms, so it ends at 14.01 ms; flow 2 has drained 6 Mbit by then and its
// last 2 Mbit run at B: 16.01 ms = l + 2M/B.
TEST(FlowNetworkTest, ALateFlowGetsHalfTheLinkUntilTheFirstEnds) {
  const Topology t = Line(2, 1e9, 10e-6);
  Engine engine;
  Network net(engine, t, Flow());
  SimTime first, second;
  net.Send(0, 1, 8'000'000, [&] { first = engine.Now(); });
  engine.ScheduleAt(Sec(2e-3), [&] { net.Send(0, 1, 8'000'000, [&] { second = engine.Now(); }); });
  engine.Run();
  EXPECT_EQ(first, Ps(14'010'000'000));
  EXPECT_EQ(second, Ps(16'010'000'000));
}

// Parking lot on h0 - h1 - h2 (capacity C, latency l per link): A = h0 -> h2 crosses both links,
// B = h0 -> h1 and C = h1 -> h2 one each. B and C start after l and run alone at C until A starts
// after 2l; from then on every flow gets C/2. B and C end at 2l + 2(M - C l)/C = 2M/C; A has
// M - (M - C l) = C l bits left, drained at C: it ends at 2M/C + l.
TEST(FlowNetworkTest, ParkingLotGivesTheTextbookRates) {
  const double c = 1e9, l = 10e-6;
  const Topology t = Line(3, c, l);
  Engine engine;
  Network net(engine, t, Flow());
  SimTime a, b, cc;
  net.Send(0, 2, 8'000'000, [&] { a = engine.Now(); });
  net.Send(0, 1, 8'000'000, [&] { b = engine.Now(); });
  net.Send(1, 2, 8'000'000, [&] { cc = engine.Now(); });
  engine.Run();
  EXPECT_EQ(b, Ps(16'000'000'000));
  EXPECT_EQ(cc, Ps(16'000'000'000));
  EXPECT_EQ(a, Ps(16'010'000'000));
}

// One multicast flow: one rate for the whole tree, limited by every link it crosses. With equal
// links every worker gets M at 2l + M/B; with one worker link at B/2 the whole flow runs at B/2.
TEST(FlowNetworkTest, MulticastIsOneFlowLimitedByItsSlowestLink) {
  const int n = 3;
  for (const double slow_bps : {1e9, 5e8}) {
    StarConfig c;
    c.workers.worker_bandwidth_bps = 1e9;
    c.workers.worker_bandwidths_bps = {slow_bps, 1e9, 1e9};
    c.workers.worker_latency_s = 10e-6;
    c.server_bandwidth_bps = 1e9;
    c.server_latency_s = 10e-6;
    const Topology t = StarBuilder(c).Build(n);
    Engine engine;
    Network net(engine, t, Flow());
    std::vector<SimTime> at(n);
    const int dsts[] = {0, 1, 2};
    net.Multicast(n, dsts, 8'000'000, [&](int w) { at[w] = engine.Now(); });
    engine.Run();
    const int64_t drain_ps = slow_bps == 1e9 ? 8'000'000'000 : 16'000'000'000;
    for (int w = 0; w < n; ++w) EXPECT_EQ(at[w], Ps(20'000'000 + drain_ps)) << w;
  }
}

TEST(FlowNetworkTest, EmptyMessagePaysLatencyOnly) {
  const Topology t = Line(3, 1e9, 10e-6);
  Engine engine;
  Network net(engine, t, Flow());
  SimTime at;
  net.Send(0, 2, 0, [&] { at = engine.Now(); });
  engine.Run();
  EXPECT_EQ(at, Sec(20e-6));
}

// TCP over Ethernet at MTU 1500: 1 MB is 691 segments of 70 header bytes: 1,048,370 wire bytes.
TEST(FlowNetworkTest, ProtocolOverheadSlowsTheFlowByItsWireBits) {
  const Topology t = Line(2, 1e9, 10e-6);
  Engine engine;
  Network net(engine, t, Flow({ProtocolKind::kTcp, Framing::kEthernet, true}));
  SimTime at;
  net.Send(0, 1, 8'000'000, [&] { at = engine.Now(); });
  engine.Run();
  EXPECT_EQ(at, Ps(10'000'000 + 1'048'370LL * 8 * 1000));
  EXPECT_EQ(net.link_stats(0).bits, 1'048'370 * 8);
  EXPECT_EQ(net.link_stats(0).packets, 691);
  EXPECT_EQ(net.bits_sent_total(), 8'000'000);
}

// Flows that end at the same instant are delivered in the order they were sent, and the same
// calls give the same times.
TEST(FlowNetworkTest, SimultaneousEndsAreDeliveredInSendOrderDeterministically) {
  const Topology t = Star(3, 1e9, 1e9, 10e-6);
  auto run = [&] {
    Engine engine;
    Network net(engine, t, Flow());
    std::vector<std::pair<int, SimTime>> got;
    for (int w : {2, 0, 1}) net.Send(w, 3, 1'000'000, [&, w] { got.push_back({w, engine.Now()}); });
    engine.Run();
    return got;
  };
  const auto a = run();
  EXPECT_EQ(a, run());
  const SimTime end = Ps(20'000'000 + 3'000'000'000);  // 2l + 3M/B
  EXPECT_EQ(a, (std::vector<std::pair<int, SimTime>>{{2, end}, {0, end}, {1, end}}));
}

TEST(FlowNetworkTest, HandlersMaySendFromADelivery) {
  const Topology t = Line(2, 1e6, 1e-3);
  Engine engine;
  Network net(engine, t, Flow());
  EXPECT_EQ(net_test::PingPongFromDeliveries(engine, net, 6), 6);  // 5 messages, one after another
  EXPECT_EQ(engine.Now(), Sec(5 * (1e-3 + 1e-3)));
}

}  // namespace
}  // namespace commsim
