// `commsim run` / `commsim validate` through the binary: outputs, determinism, and every
// bad-scenario case with its message, a non-zero exit and no output folder left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::test_files::Read;
using commsim::testing::RunCommsim;

using RunCommandTest = commsim::test_files::TempDirTest;

TEST_F(RunCommandTest, WritesTheRunFolderAndIsDeterministic) {
  const std::string args = "run scenarios/quickstart.json --quiet --no-plots --set /iterations=20 ";
  const auto a = RunCommsim(args + "--out " + (dir_ / "a").string());
  ASSERT_EQ(a.status, 0) << a.out;
  const auto b = RunCommsim(args + "--jobs 2 --out " + (dir_ / "b").string());
  ASSERT_EQ(b.status, 0) << b.out;
  for (const char* file :
       {"metrics.csv", "summary.csv", "summary.json", "scenario.resolved.json"}) {
    EXPECT_TRUE(fs::exists(dir_ / "a" / file)) << file;
    EXPECT_EQ(Read(dir_ / "a" / file), Read(dir_ / "b" / file)) << file;
  }
  EXPECT_NE(a.out.find("dore"), std::string::npos);
  EXPECT_EQ(
      Read(dir_ / "a" / "metrics.csv")
          .rfind("algorithm,iteration,sim_time_s,iter_time_s,compute_time_s,codec_time_s,"
                 "comm_time_s,overlap_saved_s,loss,dist_to_opt_sq,test_accuracy,consensus_dist,"
                 "density,bits_up,bits_down,cum_bits,wire_bytes,status",
                 0),
      0u);
  // The resolved scenario runs to the same results.
  const auto c = RunCommsim("run " + (dir_ / "a" / "scenario.resolved.json").string() +
                            " --quiet --no-plots --out " + (dir_ / "c").string());
  ASSERT_EQ(c.status, 0) << c.out;
  EXPECT_EQ(Read(dir_ / "a" / "metrics.csv"), Read(dir_ / "c" / "metrics.csv"));
}

struct BadCase {
  const char* name;
  const char* scenario;
  const char* message;
};

TEST_F(RunCommandTest, BadScenariosFailClearlyAndLeaveNoOutput) {
  const BadCase cases[] = {
      {"unknown_key", R"({"algorithms": [{"name": "sgd"}], "iteratons": 5})",
       ": /iteratons: unknown key; did you mean \"iterations\"?"},
      {"misspelled_algorithm", R"({"algorithms": [{"name": "dorre"}]})",
       ": /algorithms/0/name: unknown algorithm \"dorre\"; did you mean \"dore\"?"},
      {"alpha", R"({"algorithms": [{"name": "sgd"}, {"name": "dore", "alpha": 1.5}]})",
       ": /algorithms/1/alpha: must be in (0, 1], got 1.5"},
      {"negative_bandwidth",
       R"({"algorithms": [{"name": "sgd"}],
           "network": {"topology": {"name": "star", "server_bandwidth": -1}}})",
       ": /network/topology/server_bandwidth: must be > 0, got -1"},
      {"missing_data",
       R"({"algorithms": [{"name": "sgd"}],
           "data": {"name": "csv", "path": "/nonexistent/data.csv"}})",
       "/nonexistent/data.csv"},
      {"workers_zero", R"({"algorithms": [{"name": "sgd"}], "workers": 0})",
       ": /workers: must be in [1, 100000], got 0"},
  };
  for (const BadCase& c : cases) {
    const fs::path dir = dir_ / c.name;
    fs::create_directories(dir);
    const fs::path file = dir / "scenario.json";
    std::ofstream(file) << c.scenario;
    const fs::path out = dir / "out";
    const auto r = RunCommsim("run " + file.string() + " --quiet --no-plots --out " + out.string());
    EXPECT_EQ(r.status, 1) << c.name << ": " << r.out;
    EXPECT_NE(r.out.find(file.string()), std::string::npos) << c.name << ": " << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.name << ": " << r.out;
    EXPECT_FALSE(fs::exists(out)) << c.name;
    int entries = 0;
    for (const auto& e : fs::directory_iterator(dir)) entries += e.path() != file;
    EXPECT_EQ(entries, 0) << c.name << ": a staging folder was left behind";
    const auto v = RunCommsim("validate " + file.string());
    EXPECT_EQ(v.status, 1) << c.name << ": " << v.out;
    EXPECT_NE(v.out.find(c.message), std::string::npos) << c.name << ": " << v.out;
  }
}

TEST_F(RunCommandTest, ValidateAcceptsTheShippedScenarios) {
  for (const char* f : {"scenarios/quickstart.json", "scenarios/dore_convex.json"}) {
    const auto r = RunCommsim(std::string("validate ") + f);
    EXPECT_EQ(r.status, 0) << f << ": " << r.out;
  }
}

}  // namespace
