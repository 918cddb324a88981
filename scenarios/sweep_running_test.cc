// Running entries (points/<K>.running) and pluggable point schedulers of a sweep.
#include "scenarios/sweep_running.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "base/error.h"
#include "base/file_test_util.h"
#include "base/output_journal.h"
#include "scenarios/sweep_runner.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Summary = a function of the point's bandwidth; point 2 fails when `fail_point_2`.
PointRunner FakeRunner(bool fail_point_2 = false) {
  return [fail_point_2](const json& doc, const std::string&) {
    const double bw = doc["network"]["bandwidth"].get<double>();
    if (fail_point_2 && bw > 90e6 && bw < 110e6) throw UserError("bad bandwidth");
    return fmt::format("name,total_bits\nsgd,{}\n", 1e9 / bw);
  };
}

Sweep MakeSweep() {  // 10 Mbit/s, 31.6 Mbit/s, 100 Mbit/s, 316 Mbit/s, 1 Gbit/s
  return ParseSweep(json::parse(R"({"base": {"network": {}},
      "axes": [{"name": "bandwidth", "pointer": "/network/bandwidth",
                "logspace": ["10Mbps", "1Gbps", 5]}]})"),
                    "fake_sweep.json", "");
}

// The UserError that gathering the sweep folder `dir` throws ("gathered" when it throws none).
std::string GatherError(const Sweep& sweep, const std::string& dir) {
  try {
    AssembleSweepCsv(sweep, dir);
  } catch (const UserError& e) {
    return e.what();
  }
  return "gathered";
}

class SweepRunningTest : public test_files::TempDirTest {
 protected:
  std::string Dir(const std::string& sub) const { return P(sub); }
};

TEST_F(SweepRunningTest, TheEntryNamesWhoRunsThePointAndGoesAwayWhenItEnds) {
  const Sweep sweep = MakeSweep();
  const std::string dir = Dir("s");
  PrepareSweepFolder(sweep, dir, false);
  std::string seen;
  size_t watched = 1;
  const PointRunner spy = [&](const json& doc, const std::string& run_dir) {
    seen = test_files::Read(RunningFile(dir, watched));
    return FakeRunner()(doc, run_dir);
  };
  RunSweepPoint(sweep, 1, dir, false, spy, "rank 2 of 3 (host n7, pid 99)");
  EXPECT_EQ(seen, "rank 2 of 3 (host n7, pid 99)\n");
  EXPECT_FALSE(fs::exists(RunningFile(dir, 1)));
  EXPECT_TRUE(fs::exists(PointFile(dir, 1)));

  // Without a name, the entry names this process; a failing point leaves no entry either.
  watched = 0;
  RunSweepPoint(sweep, 0, dir, false, spy);
  EXPECT_EQ(seen, fmt::format("host {}, pid {}\n", HostName(), ::getpid()));
  EXPECT_THROW(RunSweepPoint(sweep, 2, dir, false, FakeRunner(true)), UserError);
  EXPECT_FALSE(fs::exists(RunningFile(dir, 2)));
}

TEST_F(SweepRunningTest, AnEntryLeftByAKilledRunIsReportedAndThePointRunAgain) {
  const Sweep sweep = MakeSweep();
  const std::string dir = Dir("s");
  PrepareSweepFolder(sweep, dir, false);
  RunSweepPoint(sweep, 0, dir, false, FakeRunner());
  WriteRunningEntry(dir, 3, "rank 1 of 3 (host n7, pid 4242)");  // killed there

  // Gathering now names the point and who was running it.
  std::string error = GatherError(sweep, dir);
  EXPECT_NE(error.find("missing (point 1); run the sweep again"), std::string::npos) << error;
  WriteRunningEntry(dir, 1, "rank 2 of 3 (host n8, pid 7)");
  error = GatherError(sweep, dir);
  EXPECT_NE(error.find("missing (point 1; rank 2 of 3 (host n8, pid 7) started it and did not "
                       "finish)"),
            std::string::npos)
      << error;

  std::FILE* notes = std::tmpfile();
  SweepOptions options;
  options.notes = notes;
  const SweepStats stats = RunSweep(sweep, dir, options, FakeRunner());
  EXPECT_EQ(stats.ran, 4u);
  std::rewind(notes);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), notes));
  std::fclose(notes);
  EXPECT_NE(text.find(fmt::format("note: {}: an earlier run stopped while rank 1 of 3 (host n7, "
                                  "pid 4242) was running point 3 (bandwidth=316227766.01683795); "
                                  "running it again\n",
                                  RunningFile(dir, 3))),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("stopped while rank 2 of 3 (host n8, pid 7) was running point 1 ("),
            std::string::npos)
      << text;
  EXPECT_FALSE(fs::exists(RunningFile(dir, 1)));
  EXPECT_FALSE(fs::exists(RunningFile(dir, 3)));
}

TEST_F(SweepRunningTest, RestartRemovesRunningEntries) {
  const Sweep sweep = MakeSweep();
  const std::string dir = Dir("s");
  PrepareSweepFolder(sweep, dir, false);
  WriteRunningEntry(dir, 4, "rank 1 of 2");
  std::ofstream(fs::path(dir) / "points" / "notes.running") << "not ours\n";
  std::ofstream(fs::path(dir) / "points" / "5.running") << "not ours either, named as commsim's\n";
  PrepareSweepFolder(sweep, dir, true);
  EXPECT_FALSE(fs::exists(RunningFile(dir, 4)));
  EXPECT_TRUE(fs::exists(fs::path(dir) / "points" / "notes.running"));
  EXPECT_EQ(test_files::Read(RunningFile(dir, 5)), "not ours either, named as commsim's\n");
}

TEST_F(SweepRunningTest, AnyScheduleOrderGivesTheSameSweepCsvAndTheFirstFailureByPoint) {
  const Sweep sweep = MakeSweep();
  RunSweep(sweep, Dir("threads"), {}, FakeRunner());
  std::vector<size_t> given;
  SweepOptions reversed;
  reversed.schedule = [&](const std::vector<size_t>& pending,
                          const std::function<void(size_t)>& run_point) {
    given = pending;
    for (auto it = pending.rbegin(); it != pending.rend(); ++it) run_point(*it);
  };
  RunSweep(sweep, Dir("reversed"), reversed, FakeRunner());
  EXPECT_EQ(given, (std::vector<size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(test_files::Read(dir_ / "reversed" / "sweep.csv"),
            test_files::Read(dir_ / "threads" / "sweep.csv"));

  // A schedule's failure fails the sweep: no sweep.csv, the finished points kept.
  SweepOptions failing;
  failing.schedule = [](const std::vector<size_t>& pending,
                        const std::function<void(size_t)>& run_point) {
    for (size_t point : pending) run_point(point);
  };
  try {
    RunSweep(sweep, Dir("failing"), failing, FakeRunner(true));
    FAIL() << "the failure was lost";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()),
              "fake_sweep.json: point 2 (bandwidth=100000000): bad bandwidth");
  }
  EXPECT_FALSE(fs::exists(dir_ / "failing" / "sweep.csv"));
  EXPECT_TRUE(fs::exists(PointFile(Dir("failing"), 1)));
}

}  // namespace
}  // namespace commsim
