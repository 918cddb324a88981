// WriteRunFolder: a run folder is published whole or not at all, and only over what commsim made.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/file_test_util.h"
#include "scenarios/runner.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Names;
using test_files::Read;

RunResult OneEntry(double loss) {
  RunResult r;
  IterationRecord rec;
  rec.algorithm = "sgd";
  rec.iteration = 1;
  rec.loss = loss;
  r.records = {{rec}};
  RunSummary s;
  s.name = "sgd";
  s.final_loss = loss;
  r.summaries = {s};
  return r;
}

class RunFolderTest : public test_files::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    scenario_.resolved = {{"name", "t"}};
    out_ = (dir_ / "out").string();
  }
  void TearDown() override {
    SetWriteFaultForTesting({});
    TempDirTest::TearDown();
  }
  Scenario scenario_;
  std::string out_;
};

TEST_F(RunFolderTest, WritesTheFiveFilesAndTheMarker) {
  WriteRunFolder(scenario_, OneEntry(2.0), out_);
  EXPECT_EQ(Names(out_),
            (std::set<std::string>{".commsim", ".commsim-owned", "metrics.csv", "run.json",
                                   "summary.csv", "summary.json", "scenario.resolved.json"}));
  EXPECT_EQ(Read(out_ + "/.commsim"), "commsim output folder\nkind=run\nformat=1\n");
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out"}));
}

TEST_F(RunFolderTest, FailedWriteOfAnyFilePublishesNothingAndKeepsThePreviousRun) {
  WriteRunFolder(scenario_, OneEntry(2.0), out_);
  const std::string before = Read(out_ + "/summary.csv");
  for (const char* file : {"metrics.csv", "summary.json", "scenario.resolved.json"}) {
    SetWriteFaultForTesting({WriteFaultStage::kAfterBytes, WriteFaultAction::kFail, file, 7});
    try {
      WriteRunFolder(scenario_, OneEntry(3.0), out_, "--out " + out_);
      FAIL() << file;
    } catch (const UserError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--out " + out_ + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(std::string(file) + ": write failed: Input/output error"),
                std::string::npos)
          << what;
    }
    EXPECT_EQ(Read(out_ + "/summary.csv"), before) << file;
    EXPECT_EQ(Names(dir_), (std::set<std::string>{"out"})) << file;  // staging removed
  }
}

// Issue #18: killed between writing the files and publishing: the target is untouched; the dead
// process's staging folder is removed by the next publication to the same target.
TEST_F(RunFolderTest, CrashBeforePublishingLeavesTheTargetUntouched) {
  WriteRunFolder(scenario_, OneEntry(2.0), out_);
  const std::string before = Read(out_ + "/summary.csv");
  const int signal = test_files::SignalOfChild([&] {
    SetWriteFaultForTesting(
        {WriteFaultStage::kBeforeRename, WriteFaultAction::kCrash, "scenario.resolved.json", 0});
    WriteRunFolder(scenario_, OneEntry(3.0), out_);
  });
  ASSERT_EQ(signal, SIGKILL);
  EXPECT_EQ(Read(out_ + "/summary.csv"), before);
  EXPECT_EQ(Names(dir_).size(), 2u);  // out and the dead process's staging folder
  WriteRunFolder(scenario_, OneEntry(4.0), out_);
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out"}));
  EXPECT_NE(Read(out_ + "/summary.csv"), before);
}

TEST_F(RunFolderTest, RefusesFoldersAndFilesItDidNotMake) {
  fs::create_directories(out_);
  std::ofstream(out_ + "/notes.txt") << "mine";
  EXPECT_THROW(WriteRunFolder(scenario_, OneEntry(2.0), out_), UserError);
  EXPECT_EQ(Names(out_), (std::set<std::string>{"notes.txt"}));
  std::ofstream(dir_ / "file") << "mine";
  EXPECT_THROW(WriteRunFolder(scenario_, OneEntry(2.0), (dir_ / "file").string()), UserError);
  EXPECT_EQ(Read(dir_ / "file"), "mine");
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out", "file"}));
}

}  // namespace
}  // namespace commsim
