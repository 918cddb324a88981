#include "sim/traffic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string_view>
#include <vector>

#include "sim/network_test_util.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using net_test::CeilPs;
using net_test::Sec;
using net_test::TrainPs;

SimTime LastDelivery(const std::vector<MessageRecord>& records) {
  SimTime last;
  for (const MessageRecord& r : records) last = std::max(last, r.delivered);
  return last;
}

// A network over `t` that has run `pattern` with messages of `bits`, and what it recorded.
struct TrafficRun {
  TrafficRun(const Topology& t, TrafficPattern pattern, int64_t bits, NetworkOptions options = {})
      : net(engine, t, options), records(RunTraffic(engine, net, pattern, bits)) {}
  Engine engine;
  Network net;
  std::vector<MessageRecord> records;
};

// Ring all-reduce on a ring of n: 2(n-1) steps, each one hop of an M/n chunk: latency plus the
// chunk's packets back to back on one link (packets pipeline over a single hop only), so
// 2(n-1) (l + T(M/n)) exactly, with every packet rounded up to 1 ps on its own at 3 Gbit/s.
TEST(TrafficTest, RingAllReduceClosedForm) {
  const int64_t lat_ps = 20'000'000;
  const int64_t m = 8'000'000;
  for (int64_t b : {int64_t{1'000'000'000}, int64_t{3'000'000'000}}) {
    for (int n : {2, 4, 8}) {
      RingConfig c;
      c.links.bandwidth_bps = static_cast<double>(b);
      c.links.latency_s = 20e-6;
      const Topology t = RingBuilder(c).Build(n);
      for (int64_t mtu : {int64_t{0}, int64_t{12'000}}) {
        const TrafficRun run(t, TrafficPattern::kRingAllReduce, m, NetworkOptions{mtu});
        const std::vector<MessageRecord>& records = run.records;
        EXPECT_EQ(records.size(), static_cast<size_t>(2 * (n - 1) * n));
        const int64_t step_ps = lat_ps + TrainPs(m / n, mtu, b);
        EXPECT_EQ(LastDelivery(records), SimTime::FromPs(2 * (n - 1) * step_ps))
            << b << " " << n << " " << mtu;
        // Only ring neighbours talk: the clockwise links carry all the bits.
        for (int i = 0; i < (n == 2 ? 1 : n); ++i) {
          EXPECT_EQ(run.net.link_stats(2 * i).bits, 2 * (n - 1) * (m / n)) << "link " << 2 * i;
        }
      }
    }
  }
}

TEST(TrafficTest, PsRoundIsIncastThenDownlink) {
  const int n = 3;
  const int64_t m = 1'000'000;
  const double b = 1e9, lat = 10e-6;
  StarConfig c;
  c.workers.worker_bandwidth_bps = b;
  c.workers.worker_latency_s = lat;
  c.server_bandwidth_bps = b;
  c.server_latency_s = lat;
  const Topology t = StarBuilder(c).Build(n);
  const std::vector<MessageRecord> records = TrafficRun(t, TrafficPattern::kPsRound, m).records;
  ASSERT_EQ(records.size(), 2u * n);
  const SimTime up_done = Sec(n * m / b + m / b + 2 * lat);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(records[i].phase, "up");
    EXPECT_EQ(records[i].dst, n);
    EXPECT_EQ(records[n + i].phase, "down");
    EXPECT_EQ(records[n + i].sent, up_done);
  }
  EXPECT_EQ(records[n - 1].delivered, up_done);
  EXPECT_EQ(LastDelivery(records), up_done + Sec(n * m / b + m / b + 2 * lat));
}

TEST(TrafficTest, NeighboursAndBroadcastRecordEveryDestination) {
  // Default links: 1 Gbit/s, 10 us. 1000 bits take 1 us per link.
  const std::vector<MessageRecord> records =
      TrafficRun(RingBuilder(RingConfig{}).Build(5), TrafficPattern::kNeighbours, 1000).records;
  EXPECT_EQ(records.size(), 10u);
  // Each host's two copies leave on two different links: one hop each, 11 us.
  for (const MessageRecord& r : records) EXPECT_EQ(r.delivered, SimTime::FromPs(11'000'000));
  const Topology star = StarBuilder(StarConfig{}).Build(4);
  const TrafficRun broadcast(star, TrafficPattern::kBroadcast, 1000);
  const std::vector<MessageRecord>& down = broadcast.records;
  ASSERT_EQ(down.size(), 4u);
  for (const MessageRecord& r : down) {
    EXPECT_EQ(r.message, down[0].message);
    EXPECT_EQ(r.delivered, SimTime::FromPs(22'000'000));  // server -> switch -> worker
  }
  EXPECT_EQ(broadcast.net.link_stats(2 * 4).bits, 1000);  // one copy on the server's link
  EXPECT_EQ(ParseTrafficPattern("ring_allreduce"), TrafficPattern::kRingAllReduce);
  EXPECT_FALSE(ParseTrafficPattern("ring").has_value());
}

// The pattern table (traffic.cc) against traffic.h: names in enum order, each read back by
// ParseTrafficPattern, and a server needed by exactly the five patterns marked PS.
TEST(TrafficTest, PatternNamesRoundTripAndPsPatternsNeedAServer) {
  const std::vector<std::string_view> names = {"incast",        "downlink",           "broadcast",
                                               "ps_round",      "ps_round_multicast", "neighbours",
                                               "ring_allreduce"};
  const std::span<const std::string_view> listed = TrafficPatternNames();
  ASSERT_EQ(std::vector<std::string_view>(listed.begin(), listed.end()), names);
  for (size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE(names[i]);
    const auto pattern = static_cast<TrafficPattern>(i);
    EXPECT_EQ(ParseTrafficPattern(names[i]), pattern);
    EXPECT_EQ(NeedsServer(pattern), i < 5);
  }
}

}  // namespace
}  // namespace commsim
