// Paths and command-line consistency, through the built program: commsim runs from any folder,
// data paths are relative to the scenario file, `validate` takes sweeps, `net` takes --set,
// `list` quotes its choices, unknown-key hints know an entry's own keys, outputs record the
// problem and the version, and run/sweep share their --jobs default.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "analysis/csv.h"
#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using commsim::testing::ExpectCommsim;
using commsim::testing::RunCommsim;

fs::path PathsDir(const std::string& name) { return test_files::FreshDir("commsim_paths_" + name); }

using commsim::testing::ReadJson;

// `commsim run` with no file runs the shipped quickstart from any working directory, and the
// built-in data sets are found beside it (no COMMSIM_DATA_DIR given).
TEST(PathsCommandTest, RunsTheQuickstartAndFindsDataFromAnyFolder) {
  const fs::path dir = PathsDir("anywhere");
  const std::string cd = "cd '" + dir.string() + "' && env -u COMMSIM_DATA_DIR -u COMMSIM_HOME";
  const auto r = RunCommsim("run --quiet --no-plots --set /iterations=2 --out q", cd);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::exists(dir / "q" / "summary.csv"));
  std::ofstream(dir / "bc.json") << R"({"workers": 2, "iterations": 2,
      "model": "logistic_regression", "data": "breast_cancer", "algorithms": ["sgd"]})";
  const auto b = RunCommsim("run bc.json --quiet --no-plots --out bc", cd);
  EXPECT_EQ(b.status, 0) << b.out;
  // A COMMSIM_HOME without the shipped scenarios is an error that says so.
  const auto bad = RunCommsim("run --quiet", "COMMSIM_HOME='" + dir.string() + "'");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find("COMMSIM_HOME=" + dir.string() + ": not a commsim folder"),
            std::string::npos)
      << bad.out;
}

// A data path inside a scenario is relative to the scenario file; on the command line, to the
// working directory. The resolved scenario holds it absolute, so it runs from anywhere too.
TEST(PathsCommandTest, DataPathsAreRelativeToTheFileThatNamesThem) {
  const fs::path dir = PathsDir("datapath");
  fs::create_directories(dir / "sub" / "d");
  std::ofstream(dir / "sub" / "d" / "t.csv") << "1,0.5\n0,-0.5\n1,0.7\n0,-0.2\n1,0.9\n0,-0.9\n";
  std::ofstream(dir / "sub" / "s.json") << R"({"workers": 2, "iterations": 2,
      "model": "logistic_regression",
      "data": {"name": "csv", "path": "d/t.csv", "label_column": 0, "test_fraction": 0},
      "algorithms": ["sgd"]})";
  const auto r =
      RunCommsim("run sub/s.json --quiet --no-plots --out out", "cd '" + dir.string() + "' &&");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json resolved = ReadJson(dir / "out" / "scenario.resolved.json");
  EXPECT_EQ(resolved["data"]["path"], (dir / "sub" / "d" / "t.csv").string());
  const auto set = RunCommsim("validate sub/s.json --set /data/path=sub/d/t.csv",
                              "cd '" + dir.string() + "' &&");
  EXPECT_EQ(set.status, 0) << set.out;
}

TEST(PathsCommandTest, ValidateTakesSweepFiles) {
  const fs::path dir = PathsDir("sweep");
  std::ofstream(dir / "sw.json") << R"({"name": "sw",
      "base": {"workers": 2, "iterations": 2, "algorithms": ["sgd"]},
      "axes": [{"pointer": "/workers", "values": [2, 3]}]})";
  ExpectCommsim("validate " + (dir / "sw.json").string(), 0, {"ok (sweep of 2 points)"});
  // A point that cannot be built (dpsgd on a star) is reported with its index.
  std::ofstream(dir / "bad.json") << R"({"name": "bad",
      "base": {"workers": 4, "iterations": 2, "network": {"topology": "ring"},
               "algorithms": ["dpsgd"]},
      "axes": [{"name": "topo", "pointer": "/network/topology", "values": ["ring", "star"]}]})";
  ExpectCommsim("validate " + (dir / "bad.json").string(), 1, {"point 1"});
}

TEST(PathsCommandTest, NetTakesSet) {
  ExpectCommsim("net scenarios/net/incast.json --set /workers=2 --set /message=1000", 0,
                {"message 1000 bits", "# end", ", 2 messages,"});
}

TEST(PathsCommandTest, ListQuotesTextChoices) {
  const std::string out = ExpectCommsim("list", 0, {R"(one of ",", ";", "tab", "space")"});
  EXPECT_EQ(out.find("one of ,,"), std::string::npos);
}

TEST(PathsCommandTest, UnknownEntryKeyHintsIncludeTheEntrysOwnKeys) {
  const fs::path dir = PathsDir("keys");
  std::ofstream(dir / "s.json") << R"({"algorithms": [{"name": "sgd", "lable": "x"}]})";
  const auto r = RunCommsim("validate " + (dir / "s.json").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("/algorithms/0/lable: unknown key; did you mean \"label\"?"),
            std::string::npos)
      << r.out;
  std::ofstream(dir / "t.json") << R"({"algorithms": [{"name": "dpsgd", "zzzzzzzz": 1}]})";
  const auto t = RunCommsim("validate " + (dir / "t.json").string());
  for (const char* key : {"label", "step", "topology"}) {
    EXPECT_NE(t.out.find(key), std::string::npos) << key << ": " << t.out;
  }
}

// summary.json states d, the data sizes and the version; wall time lives only in run.json.
TEST(PathsCommandTest, OutputsRecordTheProblemTheVersionAndTheWallTime) {
  const fs::path dir = PathsDir("record");
  const auto r = RunCommsim(
      "run scenarios/quickstart.json --quiet --no-plots --set /iterations=2 "
      "--out " +
      (dir / "out").string());
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json s = ReadJson(dir / "out" / "summary.json");
  // quickstart: 1200 x 500 synthetic regression over 20 workers, no test split, full batch.
  EXPECT_EQ(s["problem"]["dim"], 500);
  EXPECT_EQ(s["problem"]["train_samples"], 1200);
  EXPECT_EQ(s["problem"]["test_samples"], 0);
  EXPECT_EQ(s["problem"]["train_samples_per_worker"]["min"], 60);
  EXPECT_EQ(s["problem"]["batch_per_worker"]["max"], 60);
  const auto version = RunCommsim("--version");
  EXPECT_EQ(version.out, "commsim " + s["commsim_version"].get<std::string>() + "\n");
  EXPECT_FALSE(s.dump().find("wall") != std::string::npos);
  const nlohmann::json run = ReadJson(dir / "out" / "run.json");
  EXPECT_GT(run["wall_time_s"].get<double>(), 0.0);
  EXPECT_EQ(run["entries"].size(), 6u);
}

// Both `run` and `sweep` default to one job per core.
TEST(PathsCommandTest, RunAndSweepShareTheJobsDefault) {
  const auto r = RunCommsim("run scenarios/quickstart.json --no-plots --set /iterations=1 --out " +
                            (PathsDir("jobs") / "out").string());
  ASSERT_EQ(r.status, 0) << r.out;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_NE(r.out.find("jobs " + std::to_string(cores) + ")"), std::string::npos) << r.out;
  for (const char* cmd : {"run", "sweep"}) {
    const auto help = RunCommsim(std::string(cmd) + " --help");
    EXPECT_NE(help.out.find("default 0: one per core"), std::string::npos) << cmd << help.out;
  }
}

}  // namespace
}  // namespace commsim
