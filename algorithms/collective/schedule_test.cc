// The all-reduce schedules played on the simulated network (collective_exec.h): every rank ends
// with the plain sum (non-powers of two, d not divisible by n), the same bits on every rank with
// fp32 on the wire, and the collective's time equals its closed form to the picosecond.
// Expected times are written out by hand from link bandwidth B and latency l (message model,
// whole messages store-and-forward): bits x 1e12 / B picoseconds per transmission, chosen to be
// whole, plus l per hop.
#include "algorithms/collective/schedule.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "algorithms/collective/collective_exec.h"
#include "compression/compressors/identity.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

constexpr int64_t kBps = 1'000'000'000;  // 1000 ps per bit
constexpr int64_t kSchedulePsPerBit = 1000;
constexpr int64_t kScheduleLatencyPs = 3'000'000;  // 3 us
constexpr double kLatencyS = 3e-6;

Identity Codec(int64_t bits) {
  IdentityConfig c;
  c.precision = bits;
  return Identity(c);
}

struct ScheduleOutcome {
  std::vector<Eigen::VectorXd> result;  // per rank
  int64_t end_ps = 0;                   // the last rank's completion
  WireTally tally;
};

// Plays `schedule` with rank r starting at time 0 with inputs[r], ranks on hosts 0..n-1.
ScheduleOutcome Play(const Topology& topology, const Schedule& schedule,
                     const std::vector<Eigen::VectorXd>& inputs, int64_t value_bits,
                     int64_t header = 0) {
  Engine engine;
  Network network(engine, topology, NetworkOptions{});
  const Identity codec = Codec(value_bits);
  ScheduleOutcome out;
  CollectiveWire wire{.network = &network, .hosts = {}, .header_bits = header, .tally = &out.tally};
  for (int r = 0; r < schedule.num_ranks(); ++r) wire.hosts.push_back(r);
  int done = 0;
  AllReduceExec exec(wire, schedule, codec, [&](int) {
    ++done;
    out.end_ps = std::max(out.end_ps, engine.Now().ps());
  });
  for (int r = 0; r < schedule.num_ranks(); ++r) {
    exec.buffer(r) = inputs[r];
    exec.Start(r);
  }
  engine.Run();
  EXPECT_EQ(done, schedule.num_ranks());
  for (int r = 0; r < schedule.num_ranks(); ++r) out.result.push_back(exec.buffer(r));
  return out;
}

std::vector<Eigen::VectorXd> Inputs(int n, int64_t d) {
  std::vector<Eigen::VectorXd> in;
  for (int r = 0; r < n; ++r) {
    Eigen::VectorXd v(d);
    for (int64_t j = 0; j < d; ++j) v[j] = 1.0 / (1.0 + r) + 0.37 * static_cast<double>(j) - r * r;
    in.push_back(v);
  }
  return in;
}

Topology Complete(int n) {
  CompleteConfig c;
  c.links.bandwidth_bps = kBps;
  c.links.latency_s = kLatencyS;
  return CompleteBuilder(c).Build(n);
}

TEST(ScheduleTest, PartsAreBalancedContiguousAndInOrder) {
  // 10 values in 4 parts: 3, 3, 2, 2.
  EXPECT_EQ(Part({0, 10}, 4, 0).begin, 0);
  EXPECT_EQ(Part({0, 10}, 4, 0).end, 3);
  EXPECT_EQ(Part({0, 10}, 4, 1).end, 6);
  EXPECT_EQ(Part({0, 10}, 4, 2).end, 8);
  EXPECT_EQ(Part({0, 10}, 4, 3).end, 10);
  EXPECT_EQ(Part({5, 7}, 3, 2).size(), 0);  // more parts than values: empty tail parts
}

// Every kind, awkward n and d: each rank ends with the sum; on a 32-bit wire all ranks agree bit
// for bit (the senders adopt what they send).
TEST(ScheduleTest, EveryKindSumsForAnyNAndDAndRanksAgreeBitForBit) {
  for (const std::string_view kind : CollectiveKinds()) {
    for (const int n : {1, 2, 3, 5, 6, 8}) {
      const int group = n % 3 == 0 ? 3 : (n % 2 == 0 ? 2 : 1);
      for (const int64_t d : {1, 7, 13}) {
        const Schedule s = MakeAllReduce(kind, n, d, group);
        const std::vector<Eigen::VectorXd> in = Inputs(n, d);
        Eigen::VectorXd sum = Eigen::VectorXd::Zero(d);
        for (const Eigen::VectorXd& v : in) sum += v;
        const Topology topology = Complete(n);
        const ScheduleOutcome exact = Play(topology, s, in, 64);
        const ScheduleOutcome fp32 = Play(topology, s, in, 32);
        for (int r = 0; r < n; ++r) {
          const std::string what = fmt::format("{} n={} d={} rank {}", kind, n, d, r);
          EXPECT_LE((exact.result[r] - sum).norm(), 1e-12 * sum.norm()) << what;
          EXPECT_LE((fp32.result[r] - sum).norm(), 1e-6 * sum.norm()) << what;
          EXPECT_EQ(std::memcmp(fp32.result[r].data(), fp32.result[0].data(), d * sizeof(double)),
                    0)
              << what;
        }
      }
    }
  }
}

TEST(ScheduleTest, RingSumsEachChunkStartingAtItsOwnRank) {
  // Chunk c accumulates ranks c, c+1, ... (mod n): with values 1e16, 1, -1e16 the order shows:
  // chunk 0: (1e16 + 1) - 1e16 = 0 (1 is lost); chunk 1: (1 - 1e16) + 1e16 = 0; chunk 2:
  // (-1e16 + 1e16) + 1 = 1.
  const int n = 3;
  std::vector<Eigen::VectorXd> in(n, Eigen::VectorXd(3));
  in[0].setConstant(1e16);
  in[1].setConstant(1.0);
  in[2].setConstant(-1e16);
  const ScheduleOutcome out = Play(Complete(n), RingAllReduce(n, 3), in, 64);
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(out.result[r][0], 0.0);
    EXPECT_EQ(out.result[r][1], 0.0);
    EXPECT_EQ(out.result[r][2], 1.0);
  }
}

// Ring of identical links, rank i -> i+1 on its own link: 2(n-1) steps of l + M/(nB).
TEST(ScheduleTest, RingOnARingTopologyTakesTwoNMinusOneStepsOfOneChunk) {
  const int n = 5;
  const int64_t d = 40;  // M = 64 d bits, 8 values per chunk
  RingConfig c;
  c.links.bandwidth_bps = kBps;
  c.links.latency_s = kLatencyS;
  const ScheduleOutcome out =
      Play(RingBuilder(c).Build(n), RingAllReduce(n, d), Inputs(n, d), 64, 100);
  const int64_t chunk_bits = 64 * d / n + 100;
  EXPECT_EQ(out.end_ps, 2 * (n - 1) * (kScheduleLatencyPs + chunk_bits * kSchedulePsPerBit));
  // Every rank sends one chunk per step: 2(n-1) n messages of M/n + header.
  EXPECT_EQ(out.tally.bits, 2 * (n - 1) * n * chunk_bits);
}

// Through one switch every step crosses two links, each paying transmit and latency (whole
// messages: store-and-forward at the switch); the idle server host changes nothing. On
// star_direct the server host forwards between the workers like the switch does.
TEST(ScheduleTest, RingThroughOneSwitchOrTheServerHostPaysTwoHopsPerStep) {
  const int n = 4;
  const int64_t d = 32;
  StarConfig c;
  c.workers.worker_bandwidth_bps = kBps;
  c.workers.worker_latency_s = kLatencyS;
  c.server_bandwidth_bps = kBps;
  c.server_latency_s = kLatencyS;
  StarDirectConfig direct;
  direct.workers = c.workers;
  const int64_t chunk_ps = 32 * d / n * kSchedulePsPerBit;
  for (const Topology& t : {StarBuilder(c).Build(n), StarDirectBuilder(direct).Build(n)}) {
    const ScheduleOutcome out = Play(t, RingAllReduce(n, d), Inputs(n, d), 32);
    EXPECT_EQ(out.end_ps, 2 * (n - 1) * (2 * kScheduleLatencyPs + 2 * chunk_ps)) << t.kind();
  }
}

// Halving-doubling, n a power of two, direct links: 2 log2(n) l + 2 (n-1)/n M / B.
TEST(ScheduleTest, HalvingDoublingMatchesRabenseifnersClosedForm) {
  const int n = 8;
  const int64_t d = 64;
  const ScheduleOutcome out = Play(Complete(n), HalvingDoublingAllReduce(n, d), Inputs(n, d), 64);
  const int64_t m_bits = 64 * d;
  EXPECT_EQ(out.end_ps, 2 * 3 * kScheduleLatencyPs + 2 * (n - 1) * m_bits / n * kSchedulePsPerBit);
  // Halving sends M/2 + M/4 + M/8 per rank, doubling the same.
  EXPECT_EQ(out.tally.bits, n * 2 * (m_bits / 2 + m_bits / 4 + m_bits / 8));
}

// Non-power of two: rank 4 folds into rank 0 (one whole-vector transfer) before and after.
TEST(ScheduleTest, HalvingDoublingFoldsTheExtraRankWithTwoWholeTransfers) {
  const int n = 5;
  const int64_t d = 16;
  const ScheduleOutcome out = Play(Complete(n), HalvingDoublingAllReduce(n, d), Inputs(n, d), 64);
  const int64_t m_ps = 64 * d * kSchedulePsPerBit;
  // fold + (4-rank halving-doubling) + fold back
  EXPECT_EQ(out.end_ps,
            2 * (kScheduleLatencyPs + m_ps) + 2 * 2 * kScheduleLatencyPs + 2 * 3 * m_ps / 4);
}

// Binary tree in heap order on direct links: depth floor(log2 n) levels up, as many down, each a
// whole message (n = 7: depth 2; a node's two children use two different links).
TEST(ScheduleTest, TreeTakesTwiceItsDepthInWholeMessages) {
  for (const int n : {7, 6}) {  // 6: the deepest leaf (rank 5) still sits at depth 2
    const int64_t d = 10;
    const ScheduleOutcome out = Play(Complete(n), TreeAllReduce(n, d), Inputs(n, d), 64);
    EXPECT_EQ(out.end_ps, 2 * 2 * (kScheduleLatencyPs + 64 * d * kSchedulePsPerBit)) << n;
    EXPECT_EQ(out.tally.bits, 2 * (n - 1) * 64 * d) << n;  // every edge once up, once down
  }
}

// Hierarchical = its phases: ring reduce-scatter in groups of g (g-1 steps of M/g), ring
// all-reduce of the M/g part across G groups (2(G-1) steps of M/n), all-gather in groups.
TEST(ScheduleTest, HierarchicalIsTheSumOfItsThreePhases) {
  const int n = 6, g = 3, groups = 2;
  const int64_t d = 60;
  const ScheduleOutcome out = Play(Complete(n), HierarchicalAllReduce(n, d, g), Inputs(n, d), 64);
  const int64_t m_bits = 64 * d;
  const int64_t in_group = (g - 1) * (kScheduleLatencyPs + m_bits / g * kSchedulePsPerBit);
  const int64_t across = 2 * (groups - 1) * (kScheduleLatencyPs + m_bits / n * kSchedulePsPerBit);
  EXPECT_EQ(out.end_ps, 2 * in_group + across);
  // Bits: each group's reduce-scatter and all-gather move (g-1) M; the g rings across groups
  // move 2 (G-1) M/g each.
  EXPECT_EQ(out.tally.bits, 2 * groups * (g - 1) * m_bits + 2 * (groups - 1) * m_bits);
}

TEST(ScheduleTest, AllGatherForwardsEachMessageAroundTheRingAsItIs) {
  const int n = 4;
  RingConfig c;
  c.links.bandwidth_bps = kBps;
  c.links.latency_s = kLatencyS;
  const Topology ring = RingBuilder(c).Build(n);
  Engine engine;
  Network network(engine, ring, NetworkOptions{});
  WireTally tally;
  CollectiveWire wire{
      .network = &network, .hosts = {0, 1, 2, 3}, .header_bits = 8, .tally = &tally};
  int64_t end_ps = 0;
  AllGatherExec exec(wire, [&](int) { end_ps = std::max(end_ps, engine.Now().ps()); });
  const std::vector<int64_t> sizes = {100, 300, 200, 50};  // rank r's message
  for (int r = 0; r < n; ++r) {
    exec.Start(r, Share(Message{.payload_bits = sizes[r], .words = {uint64_t(r)}}));
  }
  engine.Run();
  for (int r = 0; r < n; ++r) {
    for (int o = 0; o < n; ++o) {
      ASSERT_NE(exec.messages(r)[o], nullptr);
      EXPECT_EQ(exec.messages(r)[o]->words[0], uint64_t(o));
    }
  }
  // Each message crosses n-1 links: bits = (n-1) sum (size + header).
  EXPECT_EQ(tally.bits, (n - 1) * (100 + 300 + 200 + 50 + 4 * 8));
  // Latency (3 us) exceeds every transmit (<= 308 ns), so no message waits for a link: origin o
  // reaches its last rank after n-1 hops of (its wire bits x 1000 ps + l); the slowest is rank
  // 1's 308-bit message.
  EXPECT_EQ(end_ps, 3 * (308 * kSchedulePsPerBit + kScheduleLatencyPs));
}

}  // namespace
}  // namespace commsim
