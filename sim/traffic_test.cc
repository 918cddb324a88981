#include "sim/traffic.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

SimTime Sec(double s) { return SimTime::FromSeconds(s); }

SimTime LastDelivery(const std::vector<MessageRecord>& records) {
  SimTime last;
  for (const MessageRecord& r : records) last = std::max(last, r.delivered);
  return last;
}

// Ring all-reduce on a ring of n: 2(n-1) latency + 2(n-1)/n M/B, with whole messages or packets.
TEST(TrafficTest, RingAllReduceClosedForm) {
  const double b = 1e9, lat = 20e-6;
  const int64_t m = 8'000'000;
  for (int n : {2, 4, 8}) {
    RingConfig c;
    c.links.bandwidth_bps = b;
    c.links.latency_s = lat;
    const Topology t = RingBuilder(c).Build(n);
    for (int64_t mtu : {int64_t{0}, int64_t{12'000}}) {
      Engine engine;
      Network net(engine, t, NetworkOptions{mtu});
      const std::vector<MessageRecord> records =
          RunTraffic(engine, net, TrafficPattern::kRingAllReduce, m);
      EXPECT_EQ(records.size(), static_cast<size_t>(2 * (n - 1) * n));
      const SimTime expected = Sec(2 * (n - 1) * lat + 2.0 * (n - 1) / n * m / b);
      // Per-packet rounding to 1 ps may add at most one picosecond per packet.
      const SimTime slack = SimTime::FromPs(mtu == 0 ? 0 : 2 * (n - 1) * (m / n / mtu + 1));
      EXPECT_GE(LastDelivery(records), expected) << n << " " << mtu;
      EXPECT_LE(LastDelivery(records), expected + slack) << n << " " << mtu;
      // Only ring neighbours talk: the clockwise links carry all the bits.
      for (int i = 0; i < (n == 2 ? 1 : n); ++i) {
        EXPECT_EQ(net.link_stats(2 * i).bits, 2 * (n - 1) * (m / n)) << "link " << 2 * i;
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
  Engine engine;
  Network net(engine, t);
  const std::vector<MessageRecord> records = RunTraffic(engine, net, TrafficPattern::kPsRound, m);
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
  const Topology ring = RingBuilder(RingConfig{}).Build(5);
  Engine engine;
  Network net(engine, ring);
  const std::vector<MessageRecord> records =
      RunTraffic(engine, net, TrafficPattern::kNeighbours, 1000);
  EXPECT_EQ(records.size(), 10u);
  for (const MessageRecord& r : records) EXPECT_GT(r.delivered, SimTime::Zero());
  const Topology star = StarBuilder(StarConfig{}).Build(4);
  Engine engine2;
  Network net2(engine2, star);
  const std::vector<MessageRecord> down =
      RunTraffic(engine2, net2, TrafficPattern::kBroadcast, 1000);
  ASSERT_EQ(down.size(), 4u);
  for (const MessageRecord& r : down) {
    EXPECT_EQ(r.message, down[0].message);
    EXPECT_EQ(r.delivered, down[0].delivered);
  }
  EXPECT_EQ(ParseTrafficPattern("ring_allreduce"), TrafficPattern::kRingAllReduce);
  EXPECT_FALSE(ParseTrafficPattern("ring").has_value());
}

}  // namespace
}  // namespace commsim
