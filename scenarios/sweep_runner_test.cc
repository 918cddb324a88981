#include "scenarios/sweep_runner.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "analysis/csv.h"
#include "analysis/output_folder.h"
#include "base/atomic_file.h"
#include "base/error.h"
#include "base/error_test_util.h"
#include "base/file_test_util.h"
#include "base/output_journal.h"
#include "base/owned_folder.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test_files::Read;

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
    if (!run_dir.empty()) {  // a run folder, published as WriteRunFolder does
      StagedFolder folder(run_dir, OutputKind::kRun, run_dir);
      OwnedFolder(folder.path()).WriteFile("summary.csv", summary);
      folder.Publish();
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

class SweepRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test_files::UnusedPath("sweep_runner_test"); }
  void TearDown() override {
    SetWriteFaultForTesting({});
    fs::remove_all(dir_);
  }
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

TEST_F(SweepRunnerTest, RerunSkipsStoredPointsAndLeavesEntriesItDidNotList) {
  const Sweep sweep = MakeSweep(5);
  RunSweep(sweep, Dir("a"), {}, Fake());
  const std::string first = Read(Dir("a") + "/sweep.csv");
  fs::remove(PointFile(Dir("a"), 3));
  // Names that look like leftovers of a dead writer, but that no journal lists: not commsim's.
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::vector<std::string> planted = {PointFile(Dir("a"), 3) + fmt::format(".tmp.{}", dead),
                                            Dir("a") + "/notes.old.1234", Dir("a") + "/x.tmp.99",
                                            Dir("a") + "/notes.partial.1234",
                                            Dir("a") + "/points/3.csv.tmp.0123456789abcdef"};
  for (const std::string& f : planted) std::ofstream(f) << "user data";
  int calls = 0;
  const SweepStats stats =
      RunSweep(sweep, Dir("a"), {}, [&](const json& doc, const std::string& d) {
        ++calls;
        return Fake()(doc, d);
      });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(stats.skipped, 4u);
  EXPECT_EQ(stats.ran, 1u);
  EXPECT_EQ(stats.rerun_invalid, 0u);  // a missing point is not an invalid one
  for (const std::string& f : planted) EXPECT_EQ(Read(f), "user data") << f;
  EXPECT_EQ(Read(Dir("a") + "/sweep.csv"), first);
}

// Point files cut, with a row removed or duplicated, or from another sweep: each point is run
// again (with a note), and sweep.csv is the clean run's.
TEST_F(SweepRunnerTest, TamperedPointFilesAreRunAgainNeverTrusted) {
  const Sweep sweep = MakeSweep(6);
  RunSweep(sweep, Dir("clean"), {}, Fake());
  RunSweep(sweep, Dir("a"), {}, Fake());
  const auto lines = [&](size_t k) {
    std::vector<std::string> out;
    std::istringstream in(Read(PointFile(Dir("a"), k)));
    for (std::string l; std::getline(in, l);) out.push_back(l + "\n");
    return out;  // integrity line, header, row sgd, row dore
  };
  const auto l0 = lines(0), l1 = lines(1), l2 = lines(2), l4 = lines(4);
  std::ofstream(PointFile(Dir("a"), 0), std::ios::trunc) << l0[0] + l0[1];          // cut to header
  std::ofstream(PointFile(Dir("a"), 1), std::ios::trunc) << l1[0] + l1[1] + l1[2];  // row removed
  std::ofstream(PointFile(Dir("a"), 2), std::ios::trunc) << l2[0] + l2[1] + l2[2] + l2[2] + l2[3];
  const Sweep other = MakeSweep(6, /*workers=*/8);  // same points, another sweep's fingerprint
  PrepareSweepFolder(other, Dir("other"), false);
  RunSweepPoint(other, 4, Dir("other"), false, Fake());
  fs::copy_file(PointFile(Dir("other"), 4), PointFile(Dir("a"), 4),
                fs::copy_options::overwrite_existing);
  // Files commsim did not write as they are now are never replaced: the sweep stops first, naming
  // each with its problem, and leaves them as they are.
  const std::vector<std::string> before = {Read(PointFile(Dir("a"), 0)),
                                           Read(PointFile(Dir("a"), 4))};
  int calls = 0;
  const auto counting = [&](const json& doc, const std::string& d) {
    ++calls;
    return Fake()(doc, d);
  };
  const std::string error =
      test_errors::ErrorOf([&] { RunSweep(sweep, Dir("a"), {}, counting); }, "");
  EXPECT_EQ(calls, 0);
  for (size_t k : {0u, 1u, 2u, 4u}) {
    EXPECT_NE(error.find(fmt::format("points/{}.csv (", k)), std::string::npos) << error;
  }
  EXPECT_NE(error.find("points/4.csv (belongs to another sweep"), std::string::npos) << error;
  EXPECT_NE(error.find("move them away and run again"), std::string::npos) << error;
  EXPECT_EQ(Read(PointFile(Dir("a"), 0)), before[0]);
  EXPECT_EQ(Read(PointFile(Dir("a"), 4)), before[1]);
  // Moved away, they are run again; a damaged file commsim wrote itself is replaced with a note.
  for (size_t k : {0u, 1u, 2u, 4u}) {
    fs::rename(PointFile(Dir("a"), k), PointFile(Dir("a"), k) + ".bad");
  }
  OwnedFolder(Dir("a")).WriteFile("points/3.csv", "# not a point file\n");
  char notes[4096] = {};
  std::FILE* sink = fmemopen(notes, sizeof notes - 1, "w");
  const SweepStats stats = RunSweep(sweep, Dir("a"), {.notes = sink}, counting);
  std::fclose(sink);
  EXPECT_EQ(stats.ran, 5u);
  EXPECT_EQ(stats.rerun_invalid, 1u);
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(Read(Dir("a") + "/sweep.csv"), Read(Dir("clean") + "/sweep.csv"));
  const std::string text = notes;
  EXPECT_NE(text.find(fmt::format("note: {}: ", PointFile(Dir("a"), 3))), std::string::npos)
      << text;
  EXPECT_NE(text.find("; running point 3 again"), std::string::npos) << text;
}

TEST_F(SweepRunnerTest, ForeignPointFilesOfTheSameSweepAreGathered) {
  const Sweep sweep = MakeSweep(3);
  RunSweep(sweep, Dir("clean"), {}, Fake());
  PrepareSweepFolder(sweep, Dir("a"), false);
  for (size_t k = 0; k < 3; ++k) fs::copy_file(PointFile(Dir("clean"), k), PointFile(Dir("a"), k));
  int calls = 0;
  RunSweep(sweep, Dir("a"), {}, [&](const json& doc, const std::string& d) {
    ++calls;
    return Fake()(doc, d);
  });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(Read(Dir("a") + "/sweep.csv"), Read(Dir("clean") + "/sweep.csv"));
}

// Issue #18: a crash between writing a point file and renaming it into place (or in the middle of
// the write) leaves nothing that a resumed sweep trusts; the temporary is listed in the journal
// and removed on resume.
TEST_F(SweepRunnerTest, CrashWhileStoringAPointLeavesNothingTrusted) {
  const Sweep sweep = MakeSweep(5);
  RunSweep(sweep, Dir("clean"), {}, Fake());
  for (const WriteFaultStage stage :
       {WriteFaultStage::kBeforeRename, WriteFaultStage::kAfterBytes}) {
    const std::string dir = Dir(stage == WriteFaultStage::kAfterBytes ? "mid" : "before");
    const int signal = test_files::SignalOfChild([&] {
      SetWriteFaultForTesting({stage, WriteFaultAction::kCrash, "points/3.csv", 40});
      RunSweep(sweep, dir, {.jobs = 1}, Fake());
    });
    ASSERT_EQ(signal, SIGKILL) << "the point file was not written through the atomic writer";
    EXPECT_FALSE(fs::exists(PointFile(dir, 3)));
    size_t temporaries = 0;
    for (const auto& e : fs::directory_iterator(dir + "/points")) {
      temporaries += IsTemporaryName(e.path().filename().string());
    }
    EXPECT_EQ(temporaries, 1u);  // the crash left the partial or unrenamed file
    int calls = 0;
    const SweepStats stats = RunSweep(sweep, dir, {}, [&](const json& doc, const std::string& d) {
      ++calls;
      return Fake()(doc, d);
    });
    EXPECT_EQ(calls, 2);  // points 3 and 4
    EXPECT_EQ(stats.skipped, 3u);
    EXPECT_EQ(Read(dir + "/sweep.csv"), Read(Dir("clean") + "/sweep.csv"));
    for (const auto& e : fs::directory_iterator(dir + "/points")) {
      EXPECT_FALSE(IsTemporaryName(e.path().filename().string())) << e.path();
    }
  }
}

TEST_F(SweepRunnerTest, FailedPointWriteFailsTheSweepNamingTheFile) {
  const Sweep sweep = MakeSweep(4);
  SetWriteFaultForTesting(
      {WriteFaultStage::kAfterBytes, WriteFaultAction::kFail, "points/2.csv", 10});
  try {
    RunSweep(sweep, Dir("a"), {}, Fake());
    FAIL() << "expected a failure";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()), PointFile(Dir("a"), 2) + ": write failed: Input/output error");
  }
  SetWriteFaultForTesting({});
  EXPECT_FALSE(fs::exists(PointFile(Dir("a"), 2)));
  EXPECT_FALSE(fs::exists(Dir("a") + "/sweep.csv"));
  for (const auto& e : fs::directory_iterator(Dir("a") + "/points")) {
    EXPECT_FALSE(IsTemporaryName(e.path().filename().string())) << e.path();
  }
}

TEST_F(SweepRunnerTest, RestartRemovesOnlyWhatTheSweepOwns) {
  const Sweep sweep = MakeSweep(3);
  RunSweep(sweep, Dir("a"), {.keep_runs = true}, Fake());
  fs::create_directories(Dir("a") + "/plots");
  fs::create_directories(Dir("a") + "/runs/mine");
  fs::create_directories(Dir("a") + "/runs/7");  // a run-like name, but no run marker
  const std::vector<std::string> user = {"notes.txt",       "points/notes.txt", "points/7.txt",
                                         "runs/mine/a.txt", "runs/7/a.txt",     "plots/keep.txt"};
  for (const std::string& f : user) std::ofstream(Dir("a") + "/" + f) << "mine";
  std::ofstream(Dir("a") + "/plots/loss.png") << "a plot of the user's, named as commsim's";
  std::ofstream(Dir("a") + "/points/007.csv") << "look-alike";
  std::ofstream(Dir("a") + "/points/99.csv") << "look-alike beyond the sweep's points";
  OwnedFolder(Dir("a")).WriteFile("plots/time.png", "commsim's plot");
  RunSweep(MakeSweep(2, 8), Dir("a"), {.restart = true}, Fake());
  for (const std::string& f : user) EXPECT_EQ(Read(Dir("a") + "/" + f), "mine") << f;
  EXPECT_EQ(Read(Dir("a") + "/plots/loss.png"), "a plot of the user's, named as commsim's");
  EXPECT_EQ(Read(Dir("a") + "/points/007.csv"), "look-alike");
  EXPECT_EQ(Read(Dir("a") + "/points/99.csv"), "look-alike beyond the sweep's points");
  EXPECT_FALSE(fs::exists(Dir("a") + "/plots/time.png"));
  EXPECT_FALSE(fs::exists(Dir("a") + "/runs/0"));
  EXPECT_FALSE(fs::exists(PointFile(Dir("a"), 2)));  // the old sweep's third point
  EXPECT_EQ(ReadCsvFile(Dir("a") + "/sweep.csv").size(), 4u);
}

TEST_F(SweepRunnerTest, FolderWithoutMarkerIsRefusedAndLeftUntouched) {
  fs::create_directories(Dir("notes"));
  std::ofstream(Dir("notes") + "/todo.txt") << "mine";
  for (const bool restart : {false, true}) {
    try {
      RunSweep(MakeSweep(2), Dir("notes"), {.restart = restart}, Fake());
      FAIL();
    } catch (const UserError& e) {
      EXPECT_EQ(std::string(e.what()),
                Dir("notes") +
                    ": exists and is not a commsim output folder (no .commsim "
                    "marker); choose another path or remove it yourself");
    }
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(Dir("notes"))) names.insert(e.path().filename());
    EXPECT_EQ(names, (std::set<std::string>{"todo.txt"}));
  }
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
    std::string problem;
    const std::optional<CsvTable> table = ReadPointFile(sweep, dir, k, &problem);
    ASSERT_TRUE(table) << problem;
    EXPECT_EQ(table->size(), 2u);
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
