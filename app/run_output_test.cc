// `commsim run --out` through the binary: commsim replaces only run folders it made, refuses
// everything else before running, and a failed write publishes nothing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::test_files::Names;
using commsim::test_files::Read;
using commsim::testing::RunCommsim;

const std::string kQuickstart = std::string(COMMSIM_SOURCE_DIR) + "/scenarios/quickstart.json";
const std::string kRun = "run " + kQuickstart + " --quiet --no-plots --set /iterations=20 ";

class RunOutputTest : public commsim::test_files::TempDirTest {
 protected:
  // Runs the quickstart with --out P(out): it must fail with exit code 1 and print `error`.
  void ExpectOutRefused(const std::string& out, const std::string& error) const {
    const auto r = RunCommsim(kRun + "--out " + P(out));
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find(error), std::string::npos) << r.out;
  }
};

TEST_F(RunOutputTest, AFileAtOutIsRefusedAndKept) {
  std::ofstream(P("file")) << "precious";
  ExpectOutRefused("file", "error: --out " + P("file") + ": exists and is not a folder");
  EXPECT_EQ(Read(P("file")), "precious");
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"file"}));
}

TEST_F(RunOutputTest, AFolderOfNotesIsRefusedUntouched) {
  fs::create_directories(P("notes/sub"));
  std::ofstream(P("notes/todo.txt")) << "mine";
  ExpectOutRefused("notes", "error: --out " + P("notes") +
                                ": exists and is not a commsim output folder (no .commsim marker); "
                                "choose another path or remove it yourself");
  EXPECT_EQ(Names(P("notes")), (std::set<std::string>{"sub", "todo.txt"}));
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"notes"}));  // no staging folder left beside it
}

TEST_F(RunOutputTest, TheCurrentFolderIsRefusedEvenWhenEmpty) {
  fs::create_directories(P("here"));
  fs::create_directories(P("empty"));
  std::ofstream(P("here/notes.txt")) << "mine";
  for (const char* dir : {"here", "empty"}) {
    const auto r = RunCommsim(kRun + "--out .", "cd " + P(dir) + " &&");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("--out .: is /, the current folder"), std::string::npos) << r.out;
  }
  EXPECT_EQ(Names(P("here")), (std::set<std::string>{"notes.txt"}));
  EXPECT_TRUE(fs::is_empty(P("empty")));
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"here", "empty"}));
}

TEST_F(RunOutputTest, AnEmptyFolderIsAcceptedAndAMarkedRunFolderReplaced) {
  fs::create_directories(P("out"));
  const auto first = RunCommsim(kRun + "--out " + P("out"));
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_EQ(Read(P("out/.commsim")), "commsim output folder\nkind=run\nformat=1\n");
  const auto second = RunCommsim(kRun + "--out " + P("out"));
  ASSERT_EQ(second.status, 0) << second.out;
  const std::set<std::string> outputs = {
      ".commsim",    ".commsim-owned", "metrics.csv",           "run.json",
      "summary.csv", "summary.json",   "scenario.resolved.json"};
  EXPECT_EQ(Names(P("out")), outputs);
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out"}));
  // A file the user added is never deleted: the run is refused, naming it.
  std::ofstream(P("out/stale.txt")) << "from before";
  const auto third = RunCommsim(kRun + "--out " + P("out"));
  EXPECT_EQ(third.status, 1) << third.out;
  EXPECT_NE(third.out.find("holds what commsim did not write (stale.txt)"), std::string::npos)
      << third.out;
  EXPECT_EQ(Read(P("out/stale.txt")), "from before");
}

TEST_F(RunOutputTest, ASweepFolderIsNotReplacedByARun) {
  fs::create_directories(P("sweep/points"));
  std::ofstream(P("sweep/.commsim")) << "commsim output folder\nkind=sweep\nformat=1\n";
  ExpectOutRefused("sweep", ": is a commsim sweep folder, not a run folder");
  EXPECT_TRUE(fs::exists(P("sweep/points")));
}

// The output location is checked before the run: a run that would take long fails at once, before
// its "running" line, when its folder cannot be written.
TEST_F(RunOutputTest, ReadOnlyLocationFailsBeforeTheRunStarts) {
  if (!MakeReadOnlyDir("ro")) {
    GTEST_SKIP() << "cannot make a read-only folder here (root without chattr)";
  }
  const auto r = RunCommsim("run " + kQuickstart + " --no-plots --set /iterations=1000000 --out " +
                            P("ro/new"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out.find("running"), std::string::npos) << "the run started:\n" << r.out;
  EXPECT_NE(r.out.find("error: --out " + P("ro/new") + ": cannot create a folder in " + P("ro")),
            std::string::npos)
      << r.out;
}

// A real write failure in the middle of the run folder (a file-size limit: write() fails with
// EFBIG): exit 1, the message names the output and the file, and nothing is published.
TEST_F(RunOutputTest, FailedWriteExitsNonZeroAndPublishesNothing) {
  const auto ok = RunCommsim(kRun + "--out " + P("out"));
  ASSERT_EQ(ok.status, 0) << ok.out;
  const std::string before = Read(P("out/metrics.csv"));
  const std::string limited = "run " + kQuickstart + " --quiet --no-plots --set /iterations=100 ";
  for (const char* target : {"out", "new"}) {
    const auto r = RunCommsim(limited + "--out " + P(target), "ulimit -f 4 &&");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("error: --out " + P(target) + ": "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("/metrics.csv: write failed: File too large (nothing was published)"),
              std::string::npos)
        << r.out;
  }
  EXPECT_EQ(Read(P("out/metrics.csv")), before);
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out"}));
}

TEST_F(RunOutputTest, ScenarioNamesThatAreNotFolderNamesAreRefused) {
  for (const char* name : {".hidden", "a/b", "..", "x..y"}) {
    const auto r = RunCommsim("validate " + kQuickstart + " --set /name=" + name);
    EXPECT_EQ(r.status, 1) << name << "\n" << r.out;
    EXPECT_NE(r.out.find("quickstart.json: /name: expected letters, digits"), std::string::npos)
        << r.out;
  }
}

// The results table goes to stdout; a write failure there (a full disk) is an error as well.
TEST_F(RunOutputTest, FullStandardOutputIsAnError) {
  // The binary runs as "$0" of this shell, with stdout on /dev/full and stderr still captured.
  const std::string stdout_full = "sh -c '\"$0\" \"$@\" >/dev/full'";
  const auto r = RunCommsim(kRun + "--out " + P("out"), stdout_full);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out, "error: cannot write to standard output: No space left on device\n");
  const auto list = RunCommsim("list", stdout_full);
  EXPECT_NE(list.status, 0) << list.out;
  EXPECT_NE(list.out.find("No space left on device"), std::string::npos) << list.out;
}

}  // namespace
