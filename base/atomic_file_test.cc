// AtomicFileWriter: what a reader can see after every kind of failure, real or injected.
#include "base/atomic_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/error_test_util.h"
#include "base/file_test_util.h"
#include "base/output_journal.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Names;
using test_files::Read;
using test_files::SignalOfChild;

class AtomicFileTest : public test_files::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    file_ = (dir_ / "out.csv").string();
    std::ofstream(file_) << "old content\n";
  }
  void TearDown() override {
    SetWriteFaultForTesting({});
    TempDirTest::TearDown();
  }
  std::string ErrorOfWrite(const std::string& content) {
    return test_errors::ErrorOf([&] { WriteFileAtomic(file_, content); }, "");
  }
  std::string file_;
};

TEST_F(AtomicFileTest, ReplacesTheFileAndLeavesNoTemporary) {
  WriteFileAtomic(file_, "new content\n");
  EXPECT_EQ(Read(file_), "new content\n");
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out.csv"}));
}

TEST_F(AtomicFileTest, TemporaryNameHasSixteenRandomHexDigits) {
  AtomicFileWriter a(file_), b(file_);
  const std::string prefix = file_ + ".tmp.";
  ASSERT_EQ(a.temp_path().rfind(prefix, 0), 0u);
  EXPECT_EQ(a.temp_path().size(), prefix.size() + 16);
  EXPECT_TRUE(IsTemporaryName(fs::path(a.temp_path()).filename().string()));
  EXPECT_NE(a.temp_path(), b.temp_path());  // two writers of one path in one process
}

TEST_F(AtomicFileTest, InjectedFailureAtEachStageBeforeRenameKeepsTheOldFile) {
  for (const WriteFaultStage stage :
       {WriteFaultStage::kAfterBytes, WriteFaultStage::kBeforeRename}) {
    SetWriteFaultForTesting({stage, WriteFaultAction::kFail, "out.csv", 3});
    const std::string error = ErrorOfWrite("new content that never lands\n");
    EXPECT_EQ(error.rfind(file_ + ": ", 0), 0u) << error;  // the message names the path
    EXPECT_NE(error.find("Input/output error"), std::string::npos) << error;
    EXPECT_EQ(Read(file_), "old content\n");
    EXPECT_EQ(Names(dir_), (std::set<std::string>{"out.csv"}));  // temporary removed
  }
}

TEST_F(AtomicFileTest, InjectedFailureAfterRenameReportsButTheFileIsComplete) {
  SetWriteFaultForTesting({WriteFaultStage::kAfterRename, WriteFaultAction::kFail, "out.csv", 0});
  EXPECT_EQ(ErrorOfWrite("new\n"), file_ + ": cannot sync its folder: Input/output error");
  EXPECT_EQ(Read(file_), "new\n");
}

TEST_F(AtomicFileTest, FaultOnlyHitsPathsContainingItsFilter) {
  SetWriteFaultForTesting({WriteFaultStage::kBeforeRename, WriteFaultAction::kFail, "other", 0});
  EXPECT_EQ(ErrorOfWrite("new\n"), "");
  EXPECT_EQ(Read(file_), "new\n");
}

TEST_F(AtomicFileTest, CrashMidWriteLeavesOldFileAndAJournaledPartialTemporary) {
  const int signal = SignalOfChild([&] {
    SetWriteFaultForTesting({WriteFaultStage::kAfterBytes, WriteFaultAction::kCrash, "out.csv", 5});
    WriteFileAtomic(file_, "0123456789", dir_.string());
  });
  ASSERT_EQ(signal, SIGKILL);
  EXPECT_EQ(Read(file_), "old content\n");
  std::string temp;
  for (const std::string& name : Names(dir_)) {
    if (IsTemporaryName(name)) temp = name;
  }
  ASSERT_FALSE(temp.empty());
  EXPECT_EQ(Read(dir_ / temp), "01234");  // the crash really landed mid-write
  EXPECT_NE(Read(dir_ / kJournalFileName).find(" out.csv.tmp."), std::string::npos);
  EXPECT_EQ(CleanJournal(dir_.string()), 1u);  // its writer is dead: removed
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out.csv", kJournalFileName}));
}

TEST_F(AtomicFileTest, MissingFolderIsAnErrorNamingThePath) {
  const std::string path = (dir_ / "no" / "such.csv").string();
  try {
    WriteFileAtomic(path, "x");
    FAIL();
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": cannot write", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos);
  }
}

// A real write failure, not an injected one: a file-size limit (RLIMIT_FSIZE, with SIGXFSZ
// ignored as commsim's main does) makes write() fail with EFBIG after 1000 bytes.
TEST_F(AtomicFileTest, RealWriteFailureThrowsAndKeepsTheOldFile) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1000, 1000};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      WriteFileAtomic(file_, std::string(5000, 'x'));
    } catch (const UserError& e) {
      const std::string what = e.what();
      ::_exit(what == file_ + ": write failed: File too large" ? 0 : 2);
    }
    ::_exit(3);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(Read(file_), "old content\n");
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out.csv"}));
}

}  // namespace
}  // namespace commsim
