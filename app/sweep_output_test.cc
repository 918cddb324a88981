// `commsim sweep` outputs through the binary: names that would leave results/ are refused,
// --restart and resumes never remove what commsim did not make, tampered point files are run
// again, and an unwritable folder fails before any point runs.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::test_files::Read;
using commsim::testing::RunCommsim;

// A small sweep (4 points, a few ms each) without a name.
std::string UnnamedSweep(int seed = 3) {
  nlohmann::json sweep = commsim::testing::TinySweep("", {.seed = seed});
  sweep.erase("name");
  return sweep.dump();
}

class SweepOutputTest : public commsim::test_files::TempDirTest {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(P(name)) << text;
    return P(name);
  }
};

TEST_F(SweepOutputTest, NamesThatWouldLeaveResultsAreRefusedWithTheirPointer) {
  fs::create_directories(P("a/b/c"));
  const std::string abs = P("abs_target");
  for (const std::string& name :
       {std::string("../../../x"), abs, std::string("a/b"), std::string(".."), std::string(""),
        std::string(".hidden"), std::string("back\\slash"), std::string("tab\there")}) {
    const std::string file = Write("s.json", commsim::testing::TinySweep(name).dump());
    const auto r = RunCommsim("sweep " + file + " --no-plots --quiet", "cd " + P("a/b/c") + " &&");
    EXPECT_EQ(r.status, 1) << name << "\n" << r.out;
    EXPECT_NE(r.out.find("error: " + file + ": /name: expected a name usable as a folder name"),
              std::string::npos)
        << r.out;
  }
  EXPECT_FALSE(fs::exists(P("x")));
  EXPECT_FALSE(fs::exists(abs));
  EXPECT_FALSE(fs::exists(P("a/b/c/results")));
}

// `commsim sweep` ends with the results: the mean time per iteration of every entry at every point.
TEST_F(SweepOutputTest, PrintsTheTimeTableOfEveryEntryAtEveryPoint) {
  const std::string file =
      Write("s.json", commsim::testing::TinySweep("printed", {.points = 2}).dump());
  const auto r = RunCommsim("sweep " + file + " --no-plots --quiet --out " + P("printed"));
  ASSERT_EQ(r.status, 0) << r.out;
  const size_t at = r.out.find("mean time per iteration:\n| bandwidth | sgd | dore |\n");
  ASSERT_NE(at, std::string::npos) << r.out;
  for (const std::string point : {"\n| 10 Mbit/s | ", "\n| 10 Gbit/s | "}) {
    const size_t row = r.out.find(point, at);
    ASSERT_NE(row, std::string::npos) << point << "\n" << r.out;
    const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
    EXPECT_EQ(std::count(line.begin(), line.end(), 's'), 3) << line;  // x, then two times in s
  }
}

// Reports are titled with the sweep's or the scenario's `name`, not the folder they were written
// to.
TEST_F(SweepOutputTest, ReportsAreTitledWithTheNameNotTheFolder) {
  const std::string file =
      Write("s.json", commsim::testing::TinySweep("titled", {.points = 2}).dump());
  ASSERT_EQ(RunCommsim("sweep " + file + " --no-plots --quiet --out " + P("elsewhere")).status, 0);
  EXPECT_TRUE(Read(P("elsewhere/report.md")).starts_with("# Sweep report: titled\n"))
      << Read(P("elsewhere/report.md"));
  const auto run = RunCommsim("run " + std::string(COMMSIM_SOURCE_DIR) +
                              "/scenarios/quickstart.json --set /iterations=2 --no-plots --quiet "
                              "--out " +
                              P("somewhere"));
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(RunCommsim("report " + P("somewhere")).status, 0);
  EXPECT_TRUE(Read(P("somewhere/report.md")).starts_with("# Run report: quickstart\n"))
      << Read(P("somewhere/report.md"));
}

TEST_F(SweepOutputTest, RestartAndResumeKeepEverythingCommsimDidNotMake) {
  const std::string file = Write("s.json", UnnamedSweep());
  const std::string out = P("out");
  const std::string args = "sweep " + file + " --no-plots --quiet --jobs 1 --out " + out;
  ASSERT_EQ(RunCommsim(args).status, 0);
  const std::vector<std::string> planted = {
      "notes.old.1234",          "x.tmp.99",  "notes.txt", "points/3.csv.tmp.99",
      "points/notes.partial.77", "runs.old.5"};
  for (const std::string& f : planted) Write("out/" + f, "mine");
  fs::remove(out + "/points/2.csv");
  const auto resumed = RunCommsim(args);
  ASSERT_EQ(resumed.status, 0) << resumed.out;
  const auto restarted = RunCommsim(args + " --restart");
  ASSERT_EQ(restarted.status, 0) << restarted.out;
  for (const std::string& f : planted) EXPECT_EQ(Read(out + "/" + f), "mine") << f;
  EXPECT_TRUE(fs::exists(out + "/sweep.csv"));
}

// Point files cut to their header, with a row removed or duplicated, or taken from another sweep:
// each point runs again with a note, and sweep.csv is that of a clean run.
TEST_F(SweepOutputTest, TamperedPointFilesAreNamedKeptAndRunAgainOnceMovedAway) {
  const std::string file = Write("s.json", UnnamedSweep());
  const std::string other = Write("other.json", UnnamedSweep(/*seed=*/4));
  const auto args = [&](const std::string& sweep, const std::string& out) {
    return "sweep " + sweep + " --no-plots --quiet --jobs 1 --out " + P(out);
  };
  ASSERT_EQ(RunCommsim(args(file, "clean")).status, 0);
  ASSERT_EQ(RunCommsim(args(file, "t")).status, 0);
  ASSERT_EQ(RunCommsim(args(other, "other")).status, 0);
  const auto lines = [&](int k) {
    std::vector<std::string> out;
    std::istringstream in(Read(P(fmt::format("t/points/{}.csv", k))));
    for (std::string l; std::getline(in, l);) out.push_back(l + "\n");
    return out;  // integrity line, header, sgd row, dore row
  };
  const auto l0 = lines(0), l1 = lines(1), l2 = lines(2);
  Write("t/points/0.csv", l0[0] + l0[1]);
  Write("t/points/1.csv", l1[0] + l1[1] + l1[3]);
  Write("t/points/2.csv", l2[0] + l2[1] + l2[2] + l2[3] + l2[3]);
  fs::copy_file(P("other/points/3.csv"), P("t/points/3.csv"), fs::copy_options::overwrite_existing);
  // Edited since commsim wrote them: named, kept as they are, and nothing runs.
  const std::string edited = Read(P("t/points/1.csv"));
  const auto refused = RunCommsim(args(file, "t"));
  EXPECT_EQ(refused.status, 1) << refused.out;
  for (int k = 0; k < 4; ++k) {
    EXPECT_NE(refused.out.find(fmt::format("points/{}.csv (", k)), std::string::npos)
        << refused.out;
  }
  EXPECT_NE(refused.out.find("move them away and run again"), std::string::npos) << refused.out;
  EXPECT_EQ(Read(P("t/points/1.csv")), edited);
  for (int k = 0; k < 4; ++k) {
    fs::rename(P(fmt::format("t/points/{}.csv", k)), P(fmt::format("t/points/{}.csv.edited", k)));
  }
  const auto r = RunCommsim(args(file, "t"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("sweep: 4 points (4 run now, 0 from an earlier run)"), std::string::npos)
      << r.out;
  EXPECT_EQ(Read(P("t/points/1.csv.edited")), edited);
  EXPECT_EQ(Read(P("t/sweep.csv")), Read(P("clean/sweep.csv")));
}

TEST_F(SweepOutputTest, UnwritableFolderFailsBeforeAnyPointRuns) {
  const std::string file = Write("s.json", UnnamedSweep());
  if (!MakeReadOnlyDir("ro")) {
    GTEST_SKIP() << "cannot make a read-only folder here (root without chattr)";
  }
  const auto r = RunCommsim("sweep " + file + " --no-plots --quiet --out " + P("ro"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("error: " + P("ro") + "/.commsim: cannot write"), std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::is_empty(P("ro")));
}

TEST_F(SweepOutputTest, AFolderOfNotesIsRefusedEvenWithRestart) {
  const std::string file = Write("s.json", UnnamedSweep());
  fs::create_directories(P("notes"));
  Write("notes/todo.txt", "mine");
  const auto r = RunCommsim("sweep " + file + " --no-plots --quiet --restart --out " + P("notes"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("error: " + P("notes") + ": exists and is not a commsim output folder"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(std::distance(fs::directory_iterator(P("notes")), {}), 1);
}

}  // namespace
