// The packet model with fair queueing (kFairQueue) against FIFO and hand-computed times.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "base/hash.h"
#include "base/rng.h"
#include "sim/network.h"
#include "sim/network_test_util.h"
#include "sim/topology_graph.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

constexpr int64_t kMtu = 12'000;           // bits
constexpr int64_t kPacketPs = 12'000'000;  // one packet at 1 Gbps

using net_test::Line;
using net_test::Ps;

NetworkOptions Packets(QueueDiscipline queue, ProtocolOptions protocol = {}) {
  NetworkOptions o;
  o.model = NetworkModel::kPacket;
  o.queue = queue;
  o.mtu_bits = protocol.kind == ProtocolKind::kNone ? kMtu : 0;
  o.protocol = protocol;
  return o;
}

Topology Star(int n) { return net_test::Star(n, 1e9, 10e-6, 1e9, 10e-6); }

// Two messages of 10 packets on one 1 Gbps link, sent together. Fair queueing alternates their
// packets: the first ends with the 19th packet, the second with the 20th (2M/B). FIFO sends the
// first whole: M/B, then 2M/B.
TEST(FairQueueTest, TwoEqualMessagesOnOneLinkFinishOnePacketApart) {
  const Topology t = Line(2, 1e9, 10e-6);
  for (QueueDiscipline q : {QueueDiscipline::kFairQueue, QueueDiscipline::kFifo}) {
    Engine engine;
    Network net(engine, t, Packets(q));
    SimTime a, b;
    net.Send(0, 1, 10 * kMtu, [&] { a = engine.Now(); });
    net.Send(0, 1, 10 * kMtu, [&] { b = engine.Now(); });
    engine.Run();
    const bool fq = q == QueueDiscipline::kFairQueue;
    EXPECT_EQ(a, Ps(10'000'000 + (fq ? 19 : 10) * kPacketPs));
    EXPECT_EQ(b, Ps(10'000'000 + 20 * kPacketPs));
    EXPECT_EQ(net.link_stats(0).packets, 20);
  }
}

// The server sends one unicast copy of M = 10 packets to each of 4 workers. Fair queueing: the
// server link interleaves the copies, so the k-th copy's last packet leaves the server link at
// (n*10 - n + k + 1) packet times; each then crosses a worker link (+ l + one packet).
// FIFO: copy k's last packet leaves at (k + 1) * 10 packet times.
TEST(FairQueueTest, DownlinkCopiesEndTogetherWithFairQueueingAndStaggeredWithFifo) {
  const int n = 4;
  const Topology t = Star(n);
  for (QueueDiscipline q : {QueueDiscipline::kFairQueue, QueueDiscipline::kFifo}) {
    Engine engine;
    Network net(engine, t, Packets(q));
    std::vector<SimTime> at(n);
    for (int w = 0; w < n; ++w) net.Send(n, w, 10 * kMtu, [&, w] { at[w] = engine.Now(); });
    engine.Run();
    for (int k = 0; k < n; ++k) {
      const int64_t leave = q == QueueDiscipline::kFairQueue ? n * 10 - n + k + 1 : (k + 1) * 10;
      EXPECT_EQ(at[k], Ps(20'000'000 + (leave + 1) * kPacketPs)) << k;
    }
  }
}

// Incast of 4 workers: the round time is the same in both disciplines (the server link is busy
// throughout: n M / B + one packet + 2l), and with fair queueing every upload ends within n
// packet times of the last.
TEST(FairQueueTest, IncastUploadsEndWithinOneRoundOfPackets) {
  const int n = 4;
  const Topology t = Star(n);
  Engine engine;
  Network net(engine, t, Packets(QueueDiscipline::kFairQueue));
  std::vector<SimTime> at(n);
  for (int w = 0; w < n; ++w) net.Send(w, n, 10 * kMtu, [&, w] { at[w] = engine.Now(); });
  engine.Run();
  const SimTime last = *std::max_element(at.begin(), at.end());
  const SimTime first = *std::min_element(at.begin(), at.end());
  EXPECT_EQ(last, Ps(20'000'000 + (n * 10 + 1) * kPacketPs));
  EXPECT_LE(last - first, Ps(n * kPacketPs));
}

// TCP over Ethernet: 1 MB in 691 segments, 1,048,370 bytes on the wire; one link: l + wire/B.
TEST(FairQueueTest, TcpSegmentsCarryTheirHeaders) {
  const Topology t = Line(2, 1e9, 10e-6);
  Engine engine;
  Network net(engine, t,
              Packets(QueueDiscipline::kFairQueue, {ProtocolKind::kTcp, Framing::kEthernet}));
  SimTime at;
  net.Send(0, 1, 8'000'000, [&] { at = engine.Now(); });
  engine.Run();
  EXPECT_EQ(at, Ps(10'000'000 + 1'048'370LL * 8 * 1000));
  EXPECT_EQ(net.link_stats(0).packets, 691);
  EXPECT_EQ(net.link_stats(0).bits, 1'048'370 * 8);
}

// FNV-1a over every field of a trace (8 bytes each, least significant first), from the start
// value kFifoTraceDigest was computed with (not FNV's offset basis).
uint64_t Digest(const std::vector<HopRecord>& trace) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](int64_t v) {
    char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(v >> (8 * i));
    h = Fnv1a64(std::string_view(bytes, sizeof bytes), h);
  };
  for (const HopRecord& r : trace) {
    mix(static_cast<int64_t>(r.message));
    mix(r.link);
    mix(r.packet);
    mix(r.start.ps());
    mix(r.end.ps());
  }
  return h;
}

// Random traffic on a random graph: queue "fifo" gives, unit for unit, the trace of the packet
// model as it was before queue disciplines existed (kFifoTraceDigest was computed with that
// code, commit 9307637), and fair queueing never puts two packets on a link at once.
TEST(FairQueueTest, FifoReproducesThePacketTraceOfTheModelBeforeQueues) {
  constexpr uint64_t kFifoTraceDigest = 7370016564336903180ULL;
  constexpr size_t kFifoTraceUnits = 3818;
  ErdosRenyiConfig c;
  c.p = 0.25;
  c.seed = 3;
  const Topology t = ErdosRenyiBuilder(c).Build(12);
  auto run = [&](NetworkOptions options) {
    std::vector<HopRecord> trace;
    Engine engine;
    Network net(engine, t, options);
    net.set_trace(&trace);
    net_test::RunRandomTraffic(engine, net, t);
    EXPECT_EQ(net.messages_in_flight(), 0);
    return trace;
  };
  NetworkOptions fifo;
  fifo.mtu_bits = 1500;
  fifo.model = NetworkModel::kPacket;
  fifo.queue = QueueDiscipline::kFifo;
  const std::vector<HopRecord> a = run(fifo);
  EXPECT_EQ(a.size(), kFifoTraceUnits);
  EXPECT_EQ(Digest(a), kFifoTraceDigest);
  NetworkOptions fq = fifo;
  fq.queue = QueueDiscipline::kFairQueue;
  std::vector<HopRecord> b = run(fq);
  EXPECT_EQ(b, run(fq));
  std::stable_sort(b.begin(), b.end(), [](const HopRecord& x, const HopRecord& y) {
    return x.link < y.link || (x.link == y.link && x.start < y.start);
  });
  for (size_t i = 1; i < b.size(); ++i) {
    if (b[i].link == b[i - 1].link) {
      EXPECT_GE(b[i].start, b[i - 1].end);
    }
  }
}

}  // namespace
}  // namespace commsim
