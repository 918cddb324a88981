// Issue acceptance for the parameter-server algorithms, on the shipped scenarios and on small
// scenarios whose iteration time has a closed form (docs/algorithms.md, Time model).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "analysis/records_test_util.h"
#include "scenarios/runner.h"
#include "scenarios/timing_scenario_test_util.h"
#include "sim/network_test_util.h"

namespace commsim {
namespace {

using net_test::CeilPs;  // the reference transmit time

using nlohmann::json;

using test_records::SummaryNamed;

TEST(PsAcceptanceTest, DoreConvexConvergesAndCompresses) {
  const Scenario s = LoadScenario(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/dore_convex.json");
  RunOptions options;
  options.jobs = 2;
  const RunResult r = RunScenario(s, options);
  for (const char* name : {"sgd", "diana", "dore"}) {
    EXPECT_LT(*SummaryNamed(r, name).final_dist_to_opt_sq, 1e-10) << name;
  }
  for (const char* name : {"qsgd", "memsgd", "doublesqueeze"}) {
    EXPECT_GT(*SummaryNamed(r, name).final_dist_to_opt_sq, 1e-6) << name;
    EXPECT_EQ(SummaryNamed(r, name).status, "ok") << name;
  }
  EXPECT_LE(*SummaryNamed(r, "dore").bits_fraction_of_baseline, 0.05);
  for (const char* name : {"qsgd", "memsgd", "diana"}) {
    EXPECT_GE(*SummaryNamed(r, name).bits_fraction_of_baseline, 0.45) << name;
    EXPECT_LE(*SummaryNamed(r, name).bits_fraction_of_baseline, 0.55) << name;
  }
  // DORE's residual norms decay geometrically: each 500 iterations cut them by > 1e4.
  std::map<int64_t, const IterationRecord*> dore;
  for (size_t e = 0; e < s.algorithms.size(); ++e) {
    if (s.algorithms[e].label != "dore") continue;
    for (const IterationRecord& rec : r.records[e]) dore[rec.iteration] = &rec;
  }
  for (const char* key : {"grad_residual_sq", "model_residual_sq"}) {
    const double a = dore.at(500)->extra.at(key), b = dore.at(1000)->extra.at(key),
                 c = dore.at(1500)->extra.at(key);
    EXPECT_LT(b, 1e-4 * a) << key;
    EXPECT_LT(c, 1e-4 * b) << key;
  }
}

// Per-bucket compression still converges: the DORE convex scenario with layer-wise overlap
// (buckets of 160 parameters: d = 500 splits into 160, 160, 160, 20, each compressed on its own)
// and the codec model reaches the optimum as tightly as without buckets.
TEST(PsAcceptanceTest, DoreConvexConvergesWithPerBucketCompression) {
  std::ifstream in(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/dore_convex.json");
  json doc = json::parse(in);
  doc["compute"]["overlap"] = "layerwise";
  doc["compute"]["bucket"] = "640B";
  doc["codec"] = {{"mode", "model"}, {"device", "cpu_core"}};
  json kept = json::array();
  for (const json& e : doc["algorithms"]) {
    if (e["label"] == "sgd" || e["label"] == "dore") kept.push_back(e);
  }
  doc["algorithms"] = kept;
  const Scenario s = ParseScenario(doc, "dore_convex_overlap", std::string(COMMSIM_SOURCE_DIR));
  RunOptions options;
  options.jobs = 2;
  const RunResult r = RunScenario(s, options);
  for (const char* name : {"sgd", "dore"}) {
    EXPECT_EQ(SummaryNamed(r, name).status, "ok") << name;
    EXPECT_LT(*SummaryNamed(r, name).final_dist_to_opt_sq, 1e-10) << name;
    EXPECT_GT(SummaryNamed(r, name).mean_codec_time_s, 0.0) << name;
  }
  EXPECT_LE(*SummaryNamed(r, "dore").bits_fraction_of_baseline, 0.06);
}

// A star with every link at bandwidth `bw` and latency `lat`, fixed compute (50 ms), whole
// messages of M wire bits (payload + header): the uplink ends at T(M) + l + n T(M) + l (incast on
// the server link), the unicast downlink at n T(D) + l + T(D) + l, the multicast one at
// T(D) + l + T(D) + l, with T(M) = ceil(M x 1e12 / bw) ps.
using test_scenarios::TimingScenario;

TEST(PsAcceptanceTest, IterationTimeMatchesTheStarClosedForm) {
  const int n = 8;
  const int64_t d = 20000, header = 160, lat_ps = 50'000'000, compute_ps = 50'000'000'000;
  // 3 Gbit/s and 7 Mbit/s do not divide 1e12 ps: every transmission rounds up on its own.
  for (int64_t bw : {int64_t{3'000'000'000}, int64_t{7'000'000}}) {
    for (const std::string algorithm : {"sgd", "dore"}) {
      const Scenario s =
          ParseScenario(TimingScenario(algorithm, n, d, bw, 50e-6, "unicast", header), "t", ".");
      const RunResult r = RunScenario(s, {});
      // Wire bits from the bit formulas: identity 32d; block_ternary fixed2 32 ceil(d/b) + 2d;
      // plus the header on every message.
      const int64_t m = (algorithm == "sgd" ? 32 * d : 32 * ((d + 255) / 256) + 2 * d) + header;
      const int64_t t = CeilPs(m, bw);
      const int64_t expected_ps =
          compute_ps + (t + lat_ps + n * t + lat_ps) + (n * t + lat_ps + t + lat_ps);
      const IterationRecord& last = r.records[0].back();
      EXPECT_EQ(last.iter_time_s, static_cast<double>(expected_ps) * 1e-12)
          << algorithm << " at " << bw;
      EXPECT_EQ(last.compute_time_s, static_cast<double>(compute_ps) * 1e-12);
      EXPECT_EQ(last.bits_up, n * m);
      EXPECT_EQ(last.bits_down, n * m);
    }
  }
  // Multicast: one copy leaves the server; the switch replicates in parallel.
  const Scenario s = ParseScenario(
      TimingScenario("sgd", n, d, 3'000'000'000, 50e-6, "multicast", header), "t", ".");
  const RunResult r = RunScenario(s, {});
  const int64_t m = 32 * d + header, t = CeilPs(m, 3'000'000'000);
  const int64_t expected_ps =
      compute_ps + (t + lat_ps + n * t + lat_ps) + (t + lat_ps + t + lat_ps);
  EXPECT_EQ(r.records[0].back().iter_time_s, static_cast<double>(expected_ps) * 1e-12);
  EXPECT_EQ(r.records[0].back().bits_down, m);
}

// The summary of a scenario run, recomputed from its records (metrics.csv rows): means, totals
// and the bits per iteration relative to the sgd baseline.
TEST(PsAcceptanceTest, SummaryAndBitsFractionFollowFromTheRecords) {
  json doc = TimingScenario("sgd", 4, 1000, 7'000'000, 50e-6, "unicast", 96);
  doc["compute"]["jitter"] = 0.5;
  doc["algorithms"] = json::array({json{{"name", "sgd"}}, json{{"name", "qsgd"}}});
  doc["iterations"] = 5;
  doc["metrics_every"] = 1;
  doc["step"]["size"] = 0.001;
  const Scenario s = ParseScenario(doc, "t", ".");
  const RunResult r = RunScenario(s, {});
  ASSERT_EQ(r.summaries.size(), 2u);
  std::vector<double> bits_per_iteration;
  for (size_t e = 0; e < 2; ++e) {
    const std::vector<IterationRecord>& rec = r.records[e];
    const RunSummary& sum = r.summaries[e];
    ASSERT_EQ(rec.size(), 6u) << sum.status << " " << sum.message;
    double iter_s = 0, compute_s = 0;
    int64_t bits = 0;
    for (size_t k = 1; k < rec.size(); ++k) {
      iter_s += rec[k].iter_time_s;
      compute_s += rec[k].compute_time_s;
      bits += rec[k].bits_up + rec[k].bits_down;
    }
    EXPECT_EQ(sum.iterations, 5);
    EXPECT_DOUBLE_EQ(sum.mean_iter_time_s, iter_s / 5);
    EXPECT_DOUBLE_EQ(sum.mean_compute_time_s, compute_s / 5);
    EXPECT_NEAR(sum.mean_comm_time_s, (iter_s - compute_s) / 5, 1e-12 * iter_s);
    EXPECT_EQ(sum.total_bits, bits);
    EXPECT_DOUBLE_EQ(sum.sim_time_s, rec.back().sim_time_s);
    bits_per_iteration.push_back(static_cast<double>(bits) / 5);
  }
  EXPECT_EQ(r.summaries[1].baseline, "sgd");
  EXPECT_DOUBLE_EQ(*r.summaries[0].bits_fraction_of_baseline, 1.0);
  EXPECT_DOUBLE_EQ(*r.summaries[1].bits_fraction_of_baseline,
                   bits_per_iteration[1] / bits_per_iteration[0]);
  EXPECT_LT(*r.summaries[1].bits_fraction_of_baseline, 1.0);
}

TEST(PsAcceptanceTest, ResultsDoNotDependOnJobs) {
  const Scenario s = LoadScenario(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/quickstart.json",
                                  {"/iterations=40"});
  RunOptions one, two;
  two.jobs = 2;
  const RunResult a = RunScenario(s, one);
  const RunResult b = RunScenario(s, two);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t e = 0; e < a.records.size(); ++e) {
    ASSERT_EQ(a.records[e].size(), b.records[e].size());
    for (size_t i = 0; i < a.records[e].size(); ++i) {
      EXPECT_EQ(a.records[e][i].loss, b.records[e][i].loss);
      EXPECT_EQ(a.records[e][i].cum_bits, b.records[e][i].cum_bits);
      EXPECT_EQ(a.records[e][i].sim_time_s, b.records[e][i].sim_time_s);
    }
  }
}

TEST(PsAcceptanceTest, DoreMnistAccuracyWithinOnePointOfSgd) {
  const Scenario s = LoadScenario(
      std::string(COMMSIM_SOURCE_DIR) + "/scenarios/dore_mnist.json",
      {"/metrics_every=400", R"(/algorithms=[{"name":"sgd"},{"name":"dore","beta":1,"eta":1}])"});
  RunOptions options;
  options.jobs = 2;
  const RunResult r = RunScenario(s, options);
  const double sgd = *r.summaries[0].final_test_accuracy;
  const double dore = *r.summaries[1].final_test_accuracy;
  EXPECT_GT(sgd, 0.85);
  EXPECT_NEAR(dore, sgd, 0.01);
  EXPECT_LT(*r.summaries[1].bits_fraction_of_baseline, 0.1);
}

TEST(PsAcceptanceTest, DivergenceStopsOnlyThatAlgorithm) {
  const Scenario s = LoadScenario(
      std::string(COMMSIM_SOURCE_DIR) + "/scenarios/quickstart.json",
      {"/iterations=200", "/divergence_loss=1e6",
       R"(/algorithms=[{"name":"sgd"},{"name":"doublesqueeze","step":{"size":0.5}}])"});
  const RunResult r = RunScenario(s, {});
  EXPECT_EQ(r.summaries[0].status, "ok");
  EXPECT_EQ(r.summaries[0].iterations, 200);
  EXPECT_EQ(r.summaries[1].status, "diverged");
  EXPECT_LT(r.summaries[1].iterations, 200);
  EXPECT_EQ(r.records[1].back().status, "diverged");
}

}  // namespace
}  // namespace commsim
