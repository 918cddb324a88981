#include "scenarios/sweep_runner.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "analysis/csv.h"
#include "sim/error.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A deterministic stand-in for the scenario runner: time per iteration = compute + bits/bandwidth.
std::string FakeSummary(const json& doc, int sleep_ms) {
  if (sleep_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  const double bw = doc["network"]["bandwidth"].get<double>();
  const int64_t workers = doc["workers"].get<int64_t>();
  std::string out = "name,algorithm,mean_iter_time_s,total_bits\n";
  out += fmt::format("sgd,sgd,{},{}\n", 0.1 + workers * 1e8 / bw, workers * 100);
  out += fmt::format("dore,dore,{},{}\n", 0.1 + workers * 3e6 / bw, workers * 3);
  return out;
}

PointRunner Fake(int sleep_ms = 0) {
  return [sleep_ms](const json& doc, const std::string& run_dir) {
    const std::string summary = FakeSummary(doc, sleep_ms);
    if (!run_dir.empty()) {
      fs::create_directories(run_dir);
      std::ofstream(fs::path(run_dir) / "summary.csv") << summary;
    }
    return summary;
  };
}

Sweep MakeSweep(int points, int workers = 4) {
  return ParseSweep(json::parse(fmt::format(R"({{"base": {{"workers": {}, "network": {{}}}},
      "axes": [{{"pointer": "/network/bandwidth", "logspace": ["10Mbps", "10Gbps", {}]}}]}})",
                                            workers, points)),
                    "fake_sweep.json", "");
}

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class SweepRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("sweep_runner_test_{}_{}", ::getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Dir(const std::string& sub) const { return (dir_ / sub).string(); }
  fs::path dir_;
};

TEST_F(SweepRunnerTest, SweepCsvHasOneRowPerPointAndAlgorithmWithAxisValues) {
  const Sweep sweep = MakeSweep(4);
  const SweepStats stats = RunSweep(sweep, Dir("a"), {}, Fake());
  EXPECT_EQ(stats.points, 4u);
  EXPECT_EQ(stats.ran, 4u);
  const CsvTable t = ReadCsvFile(Dir("a") + "/sweep.csv");
  EXPECT_EQ(t.header(), (std::vector<std::string>{"point", "bandwidth", "name", "algorithm",
                                                  "mean_iter_time_s", "total_bits"}));
  ASSERT_EQ(t.size(), 8u);
  EXPECT_EQ(t.Cell(0, "point"), "0");
  EXPECT_EQ(t.Cell(0, "name"), "sgd");
  EXPECT_EQ(t.Cell(7, "name"), "dore");
  EXPECT_EQ(t.Number(7, "bandwidth"), 1e10);
  EXPECT_DOUBLE_EQ(*t.Number(0, "mean_iter_time_s"), 0.1 + 4 * 1e8 / 1e7);
  const CsvTable axes = ReadCsvFile(Dir("a") + "/axes.csv");
  EXPECT_EQ(axes.Cell(0, "unit"), "bit/s");
  EXPECT_EQ(axes.Cell(0, "scale"), "log");
  EXPECT_EQ(Read(Dir("a") + "/sweep.fingerprint"), sweep.fingerprint + "\n");
  EXPECT_FALSE(fs::exists(Dir("a") + "/runs"));
}

TEST_F(SweepRunnerTest, ParallelJobsGiveTheSameFileAsOneJob) {
  const Sweep sweep = MakeSweep(9);
  RunSweep(sweep, Dir("one"), {.jobs = 1}, Fake());
  RunSweep(sweep, Dir("three"), {.jobs = 3, .keep_runs = true}, Fake(5));
  EXPECT_EQ(Read(Dir("one") + "/sweep.csv"), Read(Dir("three") + "/sweep.csv"));
  for (int k = 0; k < 9; ++k)
    EXPECT_TRUE(fs::exists(Dir("three") + fmt::format("/runs/{}/summary.csv", k)));
}

TEST_F(SweepRunnerTest, RerunSkipsStoredPointsAndCleansDeadWritersLeftovers) {
  const Sweep sweep = MakeSweep(5);
  RunSweep(sweep, Dir("a"), {}, Fake());
  const std::string first = Read(Dir("a") + "/sweep.csv");
  fs::remove(PointFile(Dir("a"), 3));
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string leftover = PointFile(Dir("a"), 3) + fmt::format(".tmp.{}", dead);
  std::ofstream(leftover) << "point,bandw";  // a write cut short by kill -9
  int calls = 0;
  const SweepStats stats =
      RunSweep(sweep, Dir("a"), {}, [&](const json& doc, const std::string& d) {
        ++calls;
        return Fake()(doc, d);
      });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(stats.skipped, 4u);
  EXPECT_EQ(stats.ran, 1u);
  EXPECT_FALSE(fs::exists(leftover));
  EXPECT_EQ(Read(Dir("a") + "/sweep.csv"), first);
}

TEST_F(SweepRunnerTest, ChangedSweepIsRefusedUnlessRestart) {
  RunSweep(MakeSweep(3), Dir("a"), {}, Fake());
  const Sweep changed = MakeSweep(3, /*workers=*/8);
  try {
    RunSweep(changed, Dir("a"), {}, Fake());
    FAIL() << "expected a refusal";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("holds results of a different sweep"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("--restart"), std::string::npos);
  }
  const SweepStats stats = RunSweep(changed, Dir("a"), {.restart = true}, Fake());
  EXPECT_EQ(stats.ran, 3u);
  const CsvTable t = ReadCsvFile(Dir("a") + "/sweep.csv");
  EXPECT_EQ(t.Cell(0, "total_bits"), "800");
}

TEST_F(SweepRunnerTest, FailingPointNamesItselfAndKeepsFinishedPoints) {
  const Sweep sweep = MakeSweep(7);
  auto runner = [](const json& doc, const std::string& d) -> std::string {
    if (doc["network"]["bandwidth"].get<double>() > 5e8) throw UserError("bad point");
    return Fake()(doc, d);
  };
  try {
    RunSweep(sweep, Dir("a"), {.jobs = 2}, runner);
    FAIL();
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()), "fake_sweep.json: point 4 (bandwidth=1000000000): bad point");
  }
  EXPECT_TRUE(fs::exists(PointFile(Dir("a"), 0)));
  EXPECT_FALSE(fs::exists(Dir("a") + "/sweep.csv"));
  EXPECT_THROW(AssembleSweepCsv(sweep, Dir("a")), UserError);
}

TEST_F(SweepRunnerTest, SinglePointRunsIndependentlyAndIsGatheredLater) {
  const Sweep sweep = MakeSweep(3);
  PrepareSweepFolder(sweep, Dir("a"), false);
  for (size_t k : {2u, 0u, 1u}) RunSweepPoint(sweep, k, Dir("a"), false, Fake());
  EXPECT_THROW(RunSweepPoint(sweep, 3, Dir("a"), false, Fake()), UserError);
  int calls = 0;
  RunSweep(sweep, Dir("a"), {}, [&](const json&, const std::string&) -> std::string {
    ++calls;
    return "";
  });
  EXPECT_EQ(calls, 0);
  RunSweep(sweep, Dir("b"), {}, Fake());
  EXPECT_EQ(Read(Dir("a") + "/sweep.csv"), Read(Dir("b") + "/sweep.csv"));
}

// Acceptance: kill -9 in the middle of a sweep, re-run, and get the same sweep.csv as a run that
// was never interrupted.
TEST_F(SweepRunnerTest, KillNineMidSweepThenResumeGivesTheUninterruptedResult) {
  const Sweep sweep = MakeSweep(24);
  const std::string dir = Dir("killed");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      RunSweep(sweep, dir, {.jobs = 2}, Fake(40));
    } catch (...) {
    }
    ::_exit(0);
  }
  // Wait for some points to be stored, then kill the sweep without warning.
  size_t stored = 0;
  for (int i = 0; i < 500 && stored < 6; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stored = 0;
    std::error_code ec;
    for (int k = 0; k < 24; ++k) stored += fs::exists(PointFile(dir, k), ec);
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_FALSE(fs::exists(dir + "/sweep.csv"));
  // Every stored point file is complete.
  size_t complete = 0;
  for (int k = 0; k < 24; ++k) {
    if (!fs::exists(PointFile(dir, k))) continue;
    EXPECT_EQ(ReadCsvFile(PointFile(dir, k)).size(), 2u);
    ++complete;
  }
  EXPECT_GE(complete, 6u);
  EXPECT_LT(complete, 24u);

  const SweepStats resumed = RunSweep(sweep, dir, {.jobs = 2}, Fake());
  EXPECT_EQ(resumed.skipped, complete);
  RunSweep(sweep, Dir("clean"), {.jobs = 1}, Fake());
  EXPECT_EQ(Read(dir + "/sweep.csv"), Read(Dir("clean") + "/sweep.csv"));
}

}  // namespace
}  // namespace commsim
