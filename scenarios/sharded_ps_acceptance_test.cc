// Sharded parameter servers (the star's `servers` and `colocated` keys): iteration times against
// closed forms written out by hand, bits, and the mathematics against the unsharded server.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "base/error_test_util.h"
#include "scenarios/runner.h"
#include "scenarios/timing_scenario_test_util.h"
#include "sim/network_test_util.h"

namespace commsim {
namespace {

using net_test::CeilPs;  // the reference transmit time

using nlohmann::json;

using net_test::Seconds;

// SGD on a star whose every link has bandwidth `bw` and latency 50 us, whole messages, 50 ms of
// compute, 160 header bits.
json ShardedScenario(int workers, int64_t dim, int64_t bw, int servers, bool colocated,
                     const std::string& downlink) {
  json doc = test_scenarios::TimingScenario("sgd", workers, dim, bw, 50e-6, downlink, 160);
  doc["network"]["topology"]["servers"] = servers;
  doc["network"]["topology"]["colocated"] = colocated;
  return doc;
}

constexpr int64_t kLat = 50'000'000, kCompute = 50'000'000'000;

// n = 8 workers, S = 4 dedicated servers, d = 20000: every part is a shard of 5000 values,
// M = 32 x 5000 + 160 wire bits, T = T(M). A worker's link sends its S parts one after the other,
// so part s reaches the switch at (s + 1) T + l; server s's link takes the n copies of part s in
// turn and has them all at (s + 1) T + l + n T + l. Unicast: server s's n downlink copies leave
// in turn, worker w's copy reaching the switch (w + 1) T + l later; worker w's link then gets the
// S servers' parts T apart, each taking T, so it never queues: the last worker (w = n - 1) has
// the last part at (S + 1) T + 2 n T + 4 l. Multicast: one copy per server link, (S + 1) T +
// (n + 1) T + 4 l.
TEST(ShardedPsTest, IterationTimeOfSgdOnDedicatedShardServersMatchesTheClosedForm) {
  const int n = 8, servers = 4;
  const int64_t d = 20000, m = 32 * (d / servers) + 160;
  for (int64_t bw : {int64_t{3'000'000'000}, int64_t{7'000'000}}) {
    const int64_t t = CeilPs(m, bw);
    const RunResult uni = RunScenario(
        ParseScenario(ShardedScenario(n, d, bw, servers, false, "unicast"), "s", "."), {});
    const IterationRecord& u = uni.records[0].back();
    EXPECT_EQ(u.iter_time_s, Seconds(kCompute + (servers + 1) * t + 2 * n * t + 4 * kLat)) << bw;
    EXPECT_EQ(u.bits_up, n * servers * m);
    EXPECT_EQ(u.bits_down, n * servers * m);
    const RunResult multi = RunScenario(
        ParseScenario(ShardedScenario(n, d, bw, servers, false, "multicast"), "s", "."), {});
    const IterationRecord& mc = multi.records[0].back();
    EXPECT_EQ(mc.iter_time_s, Seconds(kCompute + (servers + 1) * t + (n + 1) * t + 4 * kLat)) << bw;
    EXPECT_EQ(mc.bits_down, servers * m);  // one copy leaves each server
  }
}

// Colocated, 2 workers, 2 shards: each worker keeps its own shard's part (no network, no bits)
// and sends the other through its link and the other's: 2 (T + l); the other server's downlink
// part comes back the same way: 4 (T + l) after the compute.
TEST(ShardedPsTest, ColocatedShardsExchangeOnlyTheOtherWorkersParts) {
  const int64_t d = 1000, m = 32 * 500 + 160, bw = 3'000'000'000, t = CeilPs(m, bw);
  const RunResult r =
      RunScenario(ParseScenario(ShardedScenario(2, d, bw, 2, true, "unicast"), "s", "."), {});
  const IterationRecord& last = r.records[0].back();
  EXPECT_EQ(last.iter_time_s, Seconds(kCompute + 4 * (t + kLat)));
  EXPECT_EQ(last.bits_up, 2 * m);
  EXPECT_EQ(last.bits_down, 2 * m);
  // n = 4 colocated on 4 shards of 250: each worker sends 3 of its 4 parts, each server 3 copies.
  const RunResult four =
      RunScenario(ParseScenario(ShardedScenario(4, d, bw, 4, true, "unicast"), "s", "."), {});
  const int64_t m4 = 32 * 250 + 160;
  EXPECT_EQ(four.records[0].back().bits_up, 4 * 3 * m4);
  EXPECT_EQ(four.records[0].back().bits_down, 4 * 3 * m4);
}

// The identity compressor rounds coordinate by coordinate, so SGD's iterates on 3 shards (of
// unequal sizes: 500 = 167 + 167 + 166) equal the single server's bit for bit.
TEST(ShardedPsTest, ShardedSgdIteratesEqualTheSingleServersExactly) {
  json one = ShardedScenario(4, 500, 1'000'000'000, 1, false, "unicast");
  one["iterations"] = 20;
  one["metrics_every"] = 1;
  one["step"]["size"] = 0.001;
  json three = one;
  three["network"]["topology"]["servers"] = 3;
  const RunResult a = RunScenario(ParseScenario(one, "s", "."), {});
  const RunResult b = RunScenario(ParseScenario(three, "s", "."), {});
  ASSERT_EQ(a.records[0].size(), 21u) << a.summaries[0].status << " " << a.summaries[0].message;
  ASSERT_EQ(b.records[0].size(), 21u);
  for (size_t k = 0; k < a.records[0].size(); ++k) {
    EXPECT_EQ(a.records[0][k].loss, b.records[0][k].loss) << k;
  }
  EXPECT_LT(a.records[0].back().loss, 0.9 * a.records[0].front().loss);  // it does learn
  EXPECT_NE(a.records[0].back().iter_time_s, b.records[0].back().iter_time_s);
}

// DORE with every link compressing shard by shard still reaches the optimum of its convex test.
TEST(ShardedPsTest, DoreConvexConvergesOnFourShardServers) {
  std::ifstream in(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/dore_convex.json");
  json doc = json::parse(in);
  doc["network"]["topology"]["servers"] = 4;
  json kept = json::array();
  for (const json& e : doc["algorithms"]) {
    if (e["label"] == "dore") kept.push_back(e);
  }
  doc["algorithms"] = kept;
  const RunResult r =
      RunScenario(ParseScenario(doc, "dore_sharded", std::string(COMMSIM_SOURCE_DIR)), {});
  ASSERT_EQ(r.summaries.size(), 1u);
  EXPECT_EQ(r.summaries[0].status, "ok") << r.summaries[0].message;
  EXPECT_LT(*r.summaries[0].final_dist_to_opt_sq, 1e-10);
}

TEST(ShardedPsTest, MoreServersThanParametersIsAClearError) {
  const std::string e = test_errors::ErrorOf([] {
    RunScenario(ParseScenario(ShardedScenario(2, 3, 1'000'000'000, 4, false, "unicast"), "s", "."),
                {});
  });
  EXPECT_NE(e.find("4 servers"), std::string::npos) << e;
  EXPECT_NE(e.find("only 3 parameters"), std::string::npos) << e;
}

}  // namespace
}  // namespace commsim
