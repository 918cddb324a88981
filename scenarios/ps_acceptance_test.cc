// Issue acceptance for the parameter-server algorithms, on the shipped scenarios and on small
// scenarios whose iteration time has a closed form (docs/algorithms.md, Time model).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "scenarios/runner.h"

namespace commsim {
namespace {

using nlohmann::json;

const RunSummary& Find(const RunResult& r, const std::string& name) {
  for (const RunSummary& s : r.summaries) {
    if (s.name == name) return s;
  }
  ADD_FAILURE() << "no entry " << name;
  return r.summaries.front();
}

TEST(PsAcceptanceTest, DoreConvexConvergesAndCompresses) {
  const Scenario s = LoadScenario(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/dore_convex.json");
  RunOptions options;
  options.jobs = 2;
  const RunResult r = RunScenario(s, options);
  for (const char* name : {"sgd", "diana", "dore"}) {
    EXPECT_LT(*Find(r, name).final_dist_to_opt_sq, 1e-10) << name;
  }
  for (const char* name : {"qsgd", "memsgd", "doublesqueeze"}) {
    EXPECT_GT(*Find(r, name).final_dist_to_opt_sq, 1e-6) << name;
    EXPECT_EQ(Find(r, name).status, "ok") << name;
  }
  EXPECT_LE(*Find(r, "dore").bits_fraction_of_baseline, 0.05);
  for (const char* name : {"qsgd", "memsgd", "diana"}) {
    EXPECT_GE(*Find(r, name).bits_fraction_of_baseline, 0.45) << name;
    EXPECT_LE(*Find(r, name).bits_fraction_of_baseline, 0.55) << name;
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

// A star with every link at bandwidth `bw` and latency `lat`, fixed compute, whole messages:
// uplink ends at M/B + l + n M/B + l (incast on the server link), the unicast downlink at
// n D/B + l + D/B + l.
json TimingScenario(const std::string& algorithm, int workers, int64_t dim, double bw, double lat,
                    const std::string& downlink) {
  return json{{"name", "timing"},
              {"workers", workers},
              {"iterations", 3},
              {"model", {{"name", "synthetic_quadratic"}, {"dim", dim}}},
              {"network",
               {{"topology",
                 {{"name", "star"}, {"worker_bandwidth", bw}, {"server_bandwidth", bw},
                  {"worker_latency", lat}, {"server_latency", lat}}},
                {"model", "message"},
                {"downlink", downlink}}},
              {"compute", {{"mode", "fixed"}, {"seconds", 0.05}}},
              {"step", {{"size", 0.1}}},
              {"algorithms", json::array({json{{"name", algorithm}}})}};
}

TEST(PsAcceptanceTest, IterationTimeMatchesTheStarClosedForm) {
  const int n = 8;
  const int64_t d = 100000;
  const double lat = 50e-6;
  for (double bw : {200e6, 1e9}) {
    for (const std::string algorithm : {"sgd", "dore"}) {
      const Scenario s = ParseScenario(TimingScenario(algorithm, n, d, bw, lat, "unicast"), "t", ".");
      const RunResult r = RunScenario(s, {});
      // Message sizes from the bit formulas: identity 32d; block_ternary fixed2 32*ceil(d/b) + 2d.
      const double m = algorithm == "sgd" ? 32.0 * d : 32.0 * std::ceil(d / 256.0) + 2.0 * d;
      const double expected = 0.05 + (m / bw + lat + n * m / bw + lat) + (n * m / bw + lat + m / bw + lat);
      const IterationRecord& last = r.records[0].back();
      EXPECT_NEAR(last.iter_time_s, expected, 1e-9 * expected) << algorithm << " at " << bw;
      EXPECT_NEAR(last.compute_time_s, 0.05, 1e-12);
      EXPECT_EQ(last.bits_up, static_cast<int64_t>(n * m));
      EXPECT_EQ(last.bits_down, static_cast<int64_t>(n * m));
    }
  }
  // Multicast: one copy leaves the server; the switch replicates in parallel.
  const Scenario s = ParseScenario(TimingScenario("sgd", n, d, 1e9, lat, "multicast"), "t", ".");
  const RunResult r = RunScenario(s, {});
  const double m = 32.0 * d;
  const double expected = 0.05 + (m / 1e9 + lat + n * m / 1e9 + lat) + (m / 1e9 + lat + m / 1e9 + lat);
  EXPECT_NEAR(r.records[0].back().iter_time_s, expected, 1e-9 * expected);
  EXPECT_EQ(r.records[0].back().bits_down, static_cast<int64_t>(m));
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
      {"/metrics_every=400",
       R"(/algorithms=[{"name":"sgd"},{"name":"dore","beta":1,"eta":1}])"});
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
