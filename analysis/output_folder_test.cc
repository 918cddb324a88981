// Output folders: which paths commsim accepts, what publishing replaces, what it leaves alone.
#include "analysis/output_folder.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/error_test_util.h"
#include "base/file_test_util.h"
#include "base/output_journal.h"
#include "base/owned_folder.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Names;
using test_files::Read;

class OutputFolderTest : public test_files::TempDirTest {
 protected:
  void TearDown() override {
    SetWriteFaultForTesting({});
    TempDirTest::TearDown();
  }
  std::string ErrorOfCheck(const std::string& path, OutputKind kind) {
    return test_errors::ErrorOf([&] { CheckOutputTarget(path, kind, "--out " + path); }, "");
  }
  // Publishes a run folder holding one small text file.
  void PublishRun(const std::string& target, const std::string& text) {
    StagedFolder folder(target, OutputKind::kRun, target);
    OwnedFolder(folder.path()).WriteFile("a.txt", text);
    folder.Publish();
  }
};

TEST_F(OutputFolderTest, AcceptsAbsentEmptyAndMarkedFoldersOnly) {
  EXPECT_EQ(CheckOutputTarget(P("absent"), OutputKind::kRun, "x"), OutputState::kAbsent);
  fs::create_directories(P("empty"));
  EXPECT_EQ(CheckOutputTarget(P("empty"), OutputKind::kRun, "x"), OutputState::kEmptyFolder);
  fs::create_directories(P("run"));
  WriteMarker(P("run"), OutputKind::kRun);
  EXPECT_EQ(Read(P("run") + "/.commsim"), "commsim output folder\nkind=run\nformat=1\n");
  EXPECT_EQ(CheckOutputTarget(P("run"), OutputKind::kRun, "x"), OutputState::kMarked);

  fs::create_directories(P("notes"));
  std::ofstream(P("notes") + "/todo.txt") << "mine";
  EXPECT_EQ(ErrorOfCheck(P("notes"), OutputKind::kRun),
            "--out " + P("notes") +
                ": exists and is not a commsim output folder (no .commsim marker); choose another "
                "path or remove it yourself");
  std::ofstream(P("file")) << "mine";
  EXPECT_NE(ErrorOfCheck(P("file"), OutputKind::kRun).find(": exists and is not a folder"),
            std::string::npos);
  EXPECT_EQ(
      ErrorOfCheck(P("run"), OutputKind::kSweep),
      "--out " + P("run") + ": is a commsim run folder, not a sweep folder; choose another path");
  fs::create_directory_symlink(P("run"), P("link"));
  EXPECT_NE(ErrorOfCheck(P("link"), OutputKind::kRun).find("is a symbolic link"),
            std::string::npos);
  // A marker that is not commsim's exact first line does not count.
  std::ofstream(P("notes") + "/.commsim") << "kind=run\n";
  EXPECT_NE(ErrorOfCheck(P("notes"), OutputKind::kRun), "");
}

TEST_F(OutputFolderTest, CurrentFolderItsParentsRootAndHomeNeedAMarker) {
  fs::create_directories(P("cwd/sub"));
  const fs::path saved = fs::current_path();
  fs::current_path(P("cwd/sub"));  // an empty folder, but the current one
  const std::string here = ErrorOfCheck(".", OutputKind::kRun);
  const std::string parent = ErrorOfCheck("..", OutputKind::kSweep);
  const std::string slash = ErrorOfCheck("/", OutputKind::kRun);
  WriteMarker(".", OutputKind::kSweep);
  const std::string marked = ErrorOfCheck(".", OutputKind::kSweep);
  fs::current_path(saved);
  EXPECT_NE(here.find("is /, the current folder, the home folder or a parent of one of them"),
            std::string::npos)
      << here;
  EXPECT_NE(parent.find("is /, the current folder"), std::string::npos) << parent;
  EXPECT_NE(slash.find("is /, the current folder"), std::string::npos) << slash;
  EXPECT_EQ(marked, "");
  // An empty folder that holds the home folder (as /home does) is refused too.
  const char* saved_home = std::getenv("HOME");
  const std::string old_home = saved_home ? saved_home : "";
  fs::create_directories(P("homes"));
  ::setenv("HOME", P("homes/user").c_str(), 1);
  const std::string homes = ErrorOfCheck(P("homes"), OutputKind::kRun);
  ::setenv("HOME", old_home.c_str(), 1);
  EXPECT_NE(homes.find("the home folder or a parent of one of them"), std::string::npos) << homes;
  if (const char* home = std::getenv("HOME"); home && fs::is_directory(home)) {
    OutputKind kind;
    if (!ReadMarker(home, &kind)) {
      EXPECT_NE(ErrorOfCheck(home, OutputKind::kSweep), "");
    }
  }
}

TEST_F(OutputFolderTest, PublishCreatesThenReplacesAMarkedRunFolderLeavingNothingElse) {
  const std::string target = P("results/out");
  const std::set<std::string> outputs = {".commsim", ".commsim-owned", "a.txt"};
  PublishRun(target, "first");
  EXPECT_EQ(Names(target), outputs);
  PublishRun(target, "second");
  EXPECT_EQ(Read(target + "/a.txt"), "second");
  EXPECT_EQ(Names(target), outputs);                               // replaced whole
  EXPECT_EQ(Names(P("results")), (std::set<std::string>{"out"}));  // no staging left
}

TEST_F(OutputFolderTest, ARunFolderHoldingTheUsersFilesIsNeverReplaced) {
  const std::string target = P("out");
  PublishRun(target, "first");
  std::ofstream(target + "/my.json") << "the scenario being run";
  std::ofstream(target + "/a.txt") << "edited";
  const std::string error = test_errors::ErrorOf([&] { PublishRun(target, "second"); }, "");
  EXPECT_NE(error.find("holds what commsim did not write (a.txt and my.json)"), std::string::npos)
      << error;
  EXPECT_EQ(Read(target + "/my.json"), "the scenario being run");
  EXPECT_EQ(Read(target + "/a.txt"), "edited");
  EXPECT_EQ(Names(P("")), (std::set<std::string>{"out"}));  // no staging left
}

TEST_F(OutputFolderTest, AnEmptyFolderIsAcceptedAndAnUnpublishedStagingVanishes) {
  fs::create_directories(P("empty"));
  PublishRun(P("empty"), "x");
  EXPECT_EQ(Read(P("empty") + "/a.txt"), "x");
  {
    StagedFolder folder(P("never"), OutputKind::kRun, "never");
    EXPECT_TRUE(fs::exists(folder.path() + "/.commsim"));
  }
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"empty"}));
}

TEST_F(OutputFolderTest, SomethingAppearingAtTheTargetMeanwhileIsNotReplaced) {
  StagedFolder folder(P("out"), OutputKind::kRun, "--out out");
  fs::create_directories(P("out"));
  std::ofstream(P("out") + "/notes.txt") << "written during the run";
  EXPECT_THROW(folder.Publish(), UserError);
  EXPECT_EQ(Read(P("out") + "/notes.txt"), "written during the run");
}

TEST_F(OutputFolderTest, InjectedFailureInsideStagingPublishesNothing) {
  PublishRun(P("out"), "old");
  SetWriteFaultForTesting({WriteFaultStage::kBeforeRename, WriteFaultAction::kFail, "a.txt", 0});
  EXPECT_THROW(PublishRun(P("out"), "new"), UserError);
  EXPECT_EQ(Read(P("out") + "/a.txt"), "old");
  EXPECT_EQ(Names(dir_), (std::set<std::string>{"out"}));
}

TEST_F(OutputFolderTest, RemovesOnlyStagingFoldersOfDeadOwners) {
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string dead_one = P(".out.commsim-staging.00000000000000aa");
  const std::string live_one = P(".out.commsim-staging.00000000000000bb");
  const std::string no_owner = P(".out.commsim-staging.00000000000000cc");
  const std::string user_dir = P(".out.commsim-staging.notes");
  for (const std::string& d : {dead_one, live_one, no_owner, user_dir}) {
    fs::create_directories(d);
  }
  std::ofstream(dead_one + "/.commsim-staging") << HostName() << " " << dead << "\n";
  std::ofstream(live_one + "/.commsim-staging") << HostName() << " " << ::getpid() << "\n";
  std::ofstream(user_dir + "/.commsim-staging") << HostName() << " " << dead << "\n";
  PublishRun(P("out"), "x");
  EXPECT_FALSE(fs::exists(dead_one));
  EXPECT_TRUE(fs::exists(live_one));
  EXPECT_TRUE(fs::exists(no_owner));
  EXPECT_TRUE(fs::exists(user_dir));
}

TEST_F(OutputFolderTest, EnsureMarksNewAndEmptyFoldersAndRefusesOthers) {
  EnsureOutputFolder(P("a/b"), OutputKind::kSweep, "a/b");
  OutputKind kind = OutputKind::kRun;
  EXPECT_TRUE(ReadMarker(P("a/b"), &kind));
  EXPECT_EQ(kind, OutputKind::kSweep);
  fs::create_directories(P("notes"));
  std::ofstream(P("notes") + "/n.txt") << "mine";
  EXPECT_THROW(EnsureOutputFolder(P("notes"), OutputKind::kSweep, "notes"), UserError);
  EXPECT_EQ(Names(P("notes")), (std::set<std::string>{"n.txt"}));  // nothing written into it
}

}  // namespace
}  // namespace commsim
