// Results a researcher can trust, through the built program: the silent-wrong-result fixes
// (a parameter server anywhere in an explicit topology, entry topologies inheriting the network's
// links, the batch capped at the shard for decentralized entries, the decentralized baseline) and
// the statuses (divergence caught every iteration, by its factor, in the shipped quickstart).
// Expected values are closed forms computed here.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "analysis/csv.h"
#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using commsim::testing::RunCommsim;

fs::path ResultsDir(const std::string& name) {
  return test_files::FreshDir("commsim_results_" + name);
}

// Writes `scenario` to DIR/s.json, runs it into DIR/out and returns the out folder.
fs::path RunScenarioFile(const std::string& name, const std::string& scenario,
                         int expected_status = 0) {
  const fs::path dir = ResultsDir(name);
  std::ofstream(dir / "s.json") << scenario;
  const auto r = RunCommsim("run " + (dir / "s.json").string() + " --quiet --no-plots --out " +
                            (dir / "out").string());
  EXPECT_EQ(r.status, expected_status) << r.out;
  return dir / "out";
}

using commsim::testing::ReadJson;

// Row of the summary whose name is `name`.
size_t RowOf(const CsvTable& t, const std::string& name) {
  for (size_t r = 0; r < t.size(); ++r) {
    if (t.Cell(r, "name") == name) return r;
  }
  ADD_FAILURE() << "no row " << name;
  return 0;
}

// The PS workers are every host but the server, wherever the server is: 4 workers + a server at
// host 0 behind one switch (node 5). d = 50, fp32 sgd: 32 d bits per message, 4 up + 4 down.
// (Before: the driver took hosts 0..server-1 as the workers, training none with server 0.)
TEST(ResultsCommandTest, ExplicitTopologyTrainsEveryHostButTheServer) {
  const fs::path out = RunScenarioFile("explicit", R"({
    "workers": 4, "iterations": 20,
    "data": {"name": "synthetic_regression", "samples": 400, "features": 50},
    "network": {"topology": {"name": "explicit", "server": 0, "switches": 1,
                             "edges": [0, 5, 1, 5, 2, 5, 3, 5, 4, 5]}},
    "algorithms": [{"name": "sgd"}]})");
  const CsvTable s = ReadCsvFile((out / "summary.csv").string());
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.Number(0, "total_bits"), 20.0 * 8 * 32 * 50);
  EXPECT_EQ(s.Number(0, "bits_up"), 20.0 * 4 * 32 * 50);
  EXPECT_EQ(ReadJson(out / "summary.json")["problem"]["workers"], 4);
}

// An entry's ring inherits the scenario star's worker links (100 Mbit/s, 1 ms) unless it sets its
// own. D-PSGD sends its fp32 model (32 x 50 bits) to both ring neighbours at the round's start;
// no compute: time per iteration = 1600 / bandwidth + latency. (Before: 1 Gbit/s and 10 us.)
TEST(ResultsCommandTest, EntryTopologyInheritsTheNetworksLinkParameters) {
  const fs::path out = RunScenarioFile("inherit", R"({
    "workers": 4, "iterations": 10,
    "data": {"name": "synthetic_regression", "samples": 400, "features": 50},
    "network": {"topology": {"name": "star", "worker_bandwidth": "100Mbps",
                             "worker_latency": "1ms"}},
    "algorithms": [{"name": "sgd"},
                   {"name": "dpsgd", "topology": "ring"},
                   {"name": "dpsgd", "label": "own", "topology": {"name": "ring",
                                                                  "bandwidth": "10Gbps"}}]})");
  const nlohmann::json resolved = ReadJson(out / "scenario.resolved.json");
  EXPECT_EQ(resolved["algorithms"][1]["topology"]["bandwidth"], 1e8);
  EXPECT_EQ(resolved["algorithms"][1]["topology"]["latency"], 1e-3);
  EXPECT_EQ(resolved["algorithms"][2]["topology"]["bandwidth"], 1e10);
  EXPECT_EQ(resolved["algorithms"][2]["topology"]["latency"], 1e-3);
  const CsvTable s = ReadCsvFile((out / "summary.csv").string());
  EXPECT_NEAR(*s.Number(RowOf(s, "dpsgd"), "mean_iter_time_s"), 1600 / 1e8 + 1e-3, 1e-12);
  EXPECT_NEAR(*s.Number(RowOf(s, "own"), "mean_iter_time_s"), 1600 / 1e10 + 1e-3, 1e-12);
}

// 100 samples per worker, batch 1000: both families compute on 100 samples, 1e6 flops each at
// 1e11 flop/s = 1 ms. (Before: the decentralized entry computed on 1000, 10 ms.)
TEST(ResultsCommandTest, DecentralizedBatchIsCappedAtTheShardLikeTheParameterServers) {
  const fs::path out = RunScenarioFile("batch", R"({
    "workers": 4, "iterations": 5, "batch": 1000,
    "model": {"name": "synthetic_quadratic", "dim": 10, "samples_per_worker": 100,
              "flops_per_sample": 1e6},
    "compute": {"mode": "flops", "device": "custom", "flops_per_s": 1e11},
    "algorithms": [{"name": "sgd"}, {"name": "dpsgd", "topology": "ring"}]})");
  const CsvTable s = ReadCsvFile((out / "summary.csv").string());
  EXPECT_NEAR(*s.Number(RowOf(s, "sgd"), "mean_compute_time_s"), 1e-3, 1e-12);
  EXPECT_NEAR(*s.Number(RowOf(s, "dpsgd"), "mean_compute_time_s"), 1e-3, 1e-12);
  const nlohmann::json problem = ReadJson(out / "summary.json")["problem"];
  EXPECT_EQ(problem["batch_per_worker"]["min"], 100);
  EXPECT_EQ(problem["batch_per_worker"]["max"], 100);
  EXPECT_EQ(problem["train_samples"], 400);
  EXPECT_EQ(problem["dim"], 10);
}

// Decentralized entries compare with dpsgd, parameter-server ones with sgd. dpsgd on a ring of 4:
// 8 copies of 32 x 50 bits per iteration.
TEST(ResultsCommandTest, DecentralizedEntriesCompareWithDpsgd) {
  const fs::path out = RunScenarioFile("baseline", R"({
    "workers": 4, "iterations": 10,
    "data": {"name": "synthetic_regression", "samples": 400, "features": 50},
    "algorithms": [{"name": "sgd"}, {"name": "qsgd"},
                   {"name": "dpsgd", "topology": "ring"},
                   {"name": "choco", "topology": "ring"}]})");
  const CsvTable s = ReadCsvFile((out / "summary.csv").string());
  const size_t dpsgd = RowOf(s, "dpsgd"), choco = RowOf(s, "choco"), qsgd = RowOf(s, "qsgd");
  EXPECT_EQ(s.Number(dpsgd, "total_bits"), 10.0 * 8 * 32 * 50);
  EXPECT_EQ(s.Cell(dpsgd, "baseline"), "dpsgd");
  EXPECT_EQ(s.Cell(choco, "baseline"), "dpsgd");
  EXPECT_EQ(s.Number(dpsgd, "bits_fraction_of_baseline"), 1.0);
  EXPECT_DOUBLE_EQ(*s.Number(choco, "bits_fraction_of_baseline"),
                   *s.Number(choco, "total_bits") / (10.0 * 8 * 32 * 50));
  EXPECT_EQ(s.Cell(qsgd, "baseline"), "sgd");
  EXPECT_DOUBLE_EQ(*s.Number(qsgd, "bits_fraction_of_baseline"),
                   *s.Number(qsgd, "total_bits") / *s.Number(RowOf(s, "sgd"), "total_bits"));
}

// f(x) = (x - c)^2 / 2 (d = 1), x0 = 0: with step 1001 the error x - c is multiplied by -1000
// per iteration, so the model the server broadcasts (fp32) after iteration k is
// x_k = c (1 - (-1000)^k), of magnitude 1000^k |c|, which the downlink cannot carry from the first
// k where that exceeds FLT_MAX. Records only at 0 and the end (metrics_every 1000): the divergence
// is caught in iteration k all the same, and `steady` runs on. D-PSGD on a ring follows the same
// recurrence on every node but sends x_(k-1) at the start of iteration k: it stops at k + 1.
TEST(ResultsCommandTest, DivergenceBetweenRecordedIterationsStopsAtThatIteration) {
  const fs::path out = RunScenarioFile("diverge", R"({
    "workers": 4, "iterations": 100, "metrics_every": 1000,
    "model": {"name": "synthetic_quadratic", "dim": 1, "lambda_min": 1, "lambda_max": 1,
              "heterogeneity": 0},
    "algorithms": [{"name": "sgd", "label": "blowup", "step": {"size": 1001}},
                   {"name": "sgd", "label": "steady", "step": {"size": 0.5}},
                   {"name": "dpsgd", "label": "gossip", "topology": "ring",
                    "step": {"size": 1001}}]})");
  const CsvTable m = ReadCsvFile((out / "metrics.csv").string());
  ASSERT_GE(m.size(), 2u);
  ASSERT_EQ(m.Cell(0, "algorithm"), "blowup");
  const double c = std::sqrt(2 * *m.Number(0, "loss"));  // |x0 - c|, from F(x0) = c^2 / 2
  int k = 1;
  while (c * std::pow(1000.0, k) <= FLT_MAX) ++k;
  EXPECT_EQ(m.Number(1, "iteration"), k);
  EXPECT_EQ(m.Cell(1, "status"), "diverged");
  const CsvTable s = ReadCsvFile((out / "summary.csv").string());
  EXPECT_EQ(s.Cell(RowOf(s, "blowup"), "status"), "diverged");
  EXPECT_EQ(s.Number(RowOf(s, "blowup"), "iterations"), k);
  EXPECT_NE(s.Cell(RowOf(s, "blowup"), "message").find("fp32"), std::string::npos);
  EXPECT_EQ(s.Cell(RowOf(s, "steady"), "status"), "ok");
  EXPECT_EQ(s.Number(RowOf(s, "steady"), "iterations"), 100);
  EXPECT_EQ(s.Cell(RowOf(s, "gossip"), "status"), "diverged");
  EXPECT_EQ(s.Number(RowOf(s, "gossip"), "iterations"), k + 1);
}

// DoubleSqueeze in the shipped quickstart grows from ~234 to ~2e5: past 1000 x the initial loss.
TEST(ResultsCommandTest, QuickstartDoubleSqueezeIsDiverged) {
  const fs::path dir = ResultsDir("quickstart");
  const auto r = RunCommsim("run scenarios/quickstart.json --quiet --no-plots --out " +
                            (dir / "out").string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("doublesqueeze diverged: at iteration"), std::string::npos) << r.out;
  const CsvTable s = ReadCsvFile((dir / "out" / "summary.csv").string());
  for (size_t row = 0; row < s.size(); ++row) {
    const bool ds = s.Cell(row, "name") == "doublesqueeze";
    EXPECT_EQ(s.Cell(row, "status"), ds ? "diverged" : "ok") << s.Cell(row, "name");
  }
  const std::string message = s.Cell(RowOf(s, "doublesqueeze"), "message");
  EXPECT_NE(message.find("divergence_factor 1000 x initial loss"), std::string::npos) << message;
  // The default target is the largest final loss of the five entries that did not diverge.
  const nlohmann::json target = ReadJson(dir / "out" / "summary.json")["target"];
  double worst = 0;
  for (size_t row = 0; row < s.size(); ++row) {
    if (s.Cell(row, "status") == "ok") worst = std::max(worst, *s.Number(row, "final_loss"));
  }
  EXPECT_EQ(target["value"], worst);
  EXPECT_EQ(s.Cell(RowOf(s, "doublesqueeze"), "time_to_target_s"), "");
}

}  // namespace
}  // namespace commsim
