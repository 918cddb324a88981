// OwnedFolder: commsim writes and removes only what its record says it wrote, never through a
// link; everything else in the folder stays byte for byte.
#include "base/owned_folder.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/error_test_util.h"
#include "base/file_test_util.h"
#include "base/owned_record.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_errors::ErrorOf;
using test_files::Read;

void Put(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class OwnedFolderTest : public test_files::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    fs::create_directories(P("out"));
    fs::create_directories(P("elsewhere"));
    Put(P("elsewhere/victim.txt"), "precious");
  }
};

TEST_F(OwnedFolderTest, WritesRecordsAndReplacesItsOwnFiles) {
  OwnedFolder folder(P("out"));
  folder.WriteFile("points/3.csv", "one");
  EXPECT_EQ(Read(P("out/points/3.csv")), "one");
  EXPECT_TRUE(folder.Owns("points/3.csv"));
  EXPECT_TRUE(folder.Owns("points"));  // the folder it made on the way
  folder.WriteFile("points/3.csv", "two");
  EXPECT_EQ(Read(P("out/points/3.csv")), "two");
  // The record names both, with the crc32 of the content as zlib computes it ("two": 0x11ca8a66).
  const std::string record = Read(P("out/.commsim-owned"));
  EXPECT_NE(record.find(" 11ca8a66 points/3.csv\n"), std::string::npos) << record;
  EXPECT_NE(record.find("d "), std::string::npos);
}

TEST_F(OwnedFolderTest, NeverOverwritesAFileItDidNotWrite) {
  Put(P("out/report.md"), "the user's notes");
  OwnedFolder folder(P("out"));
  EXPECT_NE(ErrorOf([&] {
              folder.WriteFile("report.md", "generated");
            }).find("out/report.md: was not written by commsim"),
            std::string::npos);
  EXPECT_EQ(Read(P("out/report.md")), "the user's notes");
}

TEST_F(OwnedFolderTest, NeverOverwritesAFileEditedSinceItWroteIt) {
  OwnedFolder folder(P("out"));
  folder.WriteFile("sweep.csv", "a,b\n");
  Put(P("out/sweep.csv"), "a,b\nmy edit\n");
  EXPECT_NE(ErrorOf([&] {
              folder.WriteFile("sweep.csv", "a,b\n1,2\n");
            }).find("was changed since commsim wrote it"),
            std::string::npos);
  EXPECT_EQ(Read(P("out/sweep.csv")), "a,b\nmy edit\n");
}

TEST_F(OwnedFolderTest, NeverWritesThroughALinkedSubfolderOrALinkedFile) {
  fs::create_directory_symlink(P("elsewhere"), P("out/plots"));
  OwnedFolder folder(P("out"));
  EXPECT_NE(ErrorOf([&] { folder.WriteFile("plots/victim.txt", "x"); }).find("symbolic link"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { folder.WriteFile("plots/new.png", "x"); }).find("symbolic link"),
            std::string::npos);
  fs::create_symlink(P("elsewhere/victim.txt"), P("out/summary.csv"));
  EXPECT_NE(ErrorOf([&] { folder.WriteFile("summary.csv", "x"); }).find("symbolic link"),
            std::string::npos);
  EXPECT_EQ(Read(P("elsewhere/victim.txt")), "precious");
  EXPECT_EQ(test_files::Names(P("elsewhere")), (std::set<std::string>{"victim.txt"}));
  EXPECT_TRUE(fs::is_symlink(P("out/summary.csv")));
}

TEST_F(OwnedFolderTest, RemovesOnlyRecordedUnchangedEntries) {
  OwnedFolder folder(P("out"));
  folder.WriteFile("points/0.csv", "zero");
  folder.WriteFile("points/1.csv", "one");
  folder.WriteFile("plots/a.png", "png");
  Put(P("out/points/007.csv"), "look-alike");  // a name commsim could have used, not its file
  Put(P("out/plots/mine.png"), "the user's figure");
  Put(P("out/points/1.csv"), "edited");  // commsim's file, changed since
  const std::vector<KeptEntry> kept = folder.RemoveOwned("");
  EXPECT_FALSE(fs::exists(P("out/points/0.csv")));
  EXPECT_FALSE(fs::exists(P("out/plots/a.png")));
  EXPECT_EQ(Read(P("out/points/007.csv")), "look-alike");
  EXPECT_EQ(Read(P("out/plots/mine.png")), "the user's figure");
  EXPECT_EQ(Read(P("out/points/1.csv")), "edited");
  std::set<std::string> kept_names;
  for (const KeptEntry& k : kept) kept_names.insert(k.rel + ": " + k.why);
  EXPECT_EQ(kept_names, (std::set<std::string>{
                            "points/1.csv: changed since commsim wrote it",
                            "points: holds files commsim did not write",
                            "plots: holds files commsim did not write",
                        }));
}

TEST_F(OwnedFolderTest, RemovalNeverFollowsAFolderReplacedByALink) {
  OwnedFolder folder(P("out"));
  folder.WriteFile("runs/victim.txt", "commsim's");
  fs::remove_all(P("out/runs"));
  fs::create_directory_symlink(P("elsewhere"), P("out/runs"));  // same names inside the target
  folder.RemoveOwned("");
  EXPECT_EQ(Read(P("elsewhere/victim.txt")), "precious");
  EXPECT_TRUE(fs::is_symlink(P("out/runs")));
}

TEST_F(OwnedFolderTest, ForgedRecordLinesAreNeverActedOn) {
  OwnedFolder folder(P("out"));
  folder.WriteFile("a.txt", "a");
  struct stat st {};
  ASSERT_EQ(::stat(P("elsewhere/victim.txt").c_str(), &st), 0);
  // Lines that point outside the folder, or name an entry with another identity.
  std::ofstream(P("out/.commsim-owned"), std::ios::app)
      << fmt::format("f {} {} 8 0 - ../elsewhere/victim.txt\n", st.st_dev, st.st_ino)
      << "f 1 2 3 4 - b.txt\n"
      << "garbage line\n";
  Put(P("out/b.txt"), "the user's");
  folder.RemoveOwned("");
  EXPECT_EQ(Read(P("elsewhere/victim.txt")), "precious");
  EXPECT_EQ(Read(P("out/b.txt")), "the user's");
  EXPECT_FALSE(fs::exists(P("out/a.txt")));
}

TEST_F(OwnedFolderTest, ListsWhatItDoesNotOwnButNotItsReservedNames) {
  OwnedFolder folder(P("out"));
  Put(P("out/.commsim"), "marker");
  folder.WriteFile("metrics.csv", "m");
  folder.WriteFile("plots/x.png", "p");
  Put(P("out/my.json"), "{}");
  Put(P("out/plots/extra.png"), "e");
  fs::create_symlink(P("elsewhere"), P("out/link"));
  size_t more = 7;
  EXPECT_EQ(folder.ForeignEntries("", 20, &more),
            (std::vector<std::string>{"link", "my.json", "plots/extra.png"}));
  EXPECT_EQ(more, 0u);
  EXPECT_EQ(folder.ForeignEntries("", 1, &more), (std::vector<std::string>{"link"}));
  EXPECT_EQ(more, 2u);
}

TEST_F(OwnedFolderTest, NestedCommsimFoldersAreListedAndEmptiedByTheirOwnRecord) {
  OwnedFolder sweep(P("out"));
  sweep.MakeFolder("runs");
  fs::create_directories(P("out/runs/4"));
  Put(P("out/runs/4/.commsim"), "marker");
  OwnedFolder(P("out/runs/4")).WriteFile("metrics.csv", "m");
  sweep.Record("runs/4");
  EXPECT_TRUE(sweep.ForeignEntries().empty());
  Put(P("out/runs/4/notes.txt"), "n");
  EXPECT_EQ(sweep.ForeignEntries(), (std::vector<std::string>{"runs/4/notes.txt"}));
  sweep.RemoveOwned("");
  EXPECT_FALSE(fs::exists(P("out/runs/4/metrics.csv")));
  EXPECT_EQ(Read(P("out/runs/4/notes.txt")), "n");
  fs::remove(P("out/runs/4/notes.txt"));
  sweep.RemoveOwned("");
  EXPECT_FALSE(fs::exists(P("out/runs")));
}

TEST_F(OwnedFolderTest, ReadsOnlyRegularFilesWithinTheCap) {
  OwnedFolder folder(P("out"));
  folder.WriteFile("a.txt", "12345");
  EXPECT_EQ(folder.ReadFile("a.txt", 5).value(), "12345");
  EXPECT_FALSE(folder.ReadFile("absent.txt", 5).has_value());
  EXPECT_NE(ErrorOf([&] { folder.ReadFile("a.txt", 4); }).find("more than the 4 bytes"),
            std::string::npos);
  fs::create_symlink("/dev/zero", P("out/zero.csv"));
  EXPECT_NE(ErrorOf([&] { folder.ReadFile("zero.csv", 4); }).find("symbolic link"),
            std::string::npos);
  ASSERT_EQ(::mkfifo(P("out/fifo.csv").c_str(), 0600), 0);
  EXPECT_NE(ErrorOf([&] { folder.ReadFile("fifo.csv", 4); }).find("not a regular file"),
            std::string::npos);
}

TEST_F(OwnedFolderTest, AKillAroundTheRenameNeverLeavesItsOwnFileUnowned) {
  for (const WriteFaultStage stage :
       {WriteFaultStage::kBeforeRename, WriteFaultStage::kAfterRename}) {
    OwnedFolder folder(P("out"));
    folder.WriteFile("sweep.csv", "old");
    const int signal = test_files::SignalOfChild([&] {
      SetWriteFaultForTesting({stage, WriteFaultAction::kCrash, "sweep.csv", 0});
      OwnedFolder(P("out")).WriteFile("sweep.csv", "new");
    });
    ASSERT_EQ(signal, SIGKILL);
    const std::string there = Read(P("out/sweep.csv"));
    EXPECT_EQ(there, stage == WriteFaultStage::kBeforeRename ? "old" : "new");
    EXPECT_TRUE(folder.Owns("sweep.csv")) << "whichever version is there is commsim's";
    folder.WriteFile("sweep.csv", "resumed");
    EXPECT_EQ(Read(P("out/sweep.csv")), "resumed");
  }
}

// The record is only appended to: a removal adds lines after the ones it had, so a kill at any
// byte of it (the record then ends anywhere after its old end) still owns what it owned; a line
// cut short is ignored and the next write starts a line of its own.
TEST_F(OwnedFolderTest, AKillAnywhereInARecordWriteKeepsWhatItOwned) {
  OwnedFolder folder(P("out"));
  folder.WriteFile("sweep.resolved.json", "{}");
  folder.WriteFile("running-3", "");
  const std::string before = Read(P("out/.commsim-owned"));
  folder.RemoveOwned("running-3");
  const std::string after = Read(P("out/.commsim-owned"));
  ASSERT_EQ(after.substr(0, before.size()), before) << after;
  ASSERT_GT(after.size(), before.size());
  for (size_t cut = before.size(); cut <= after.size(); ++cut) {
    Put(P("out/.commsim-owned"), after.substr(0, cut));
    fs::remove(P("out/sweep.csv"));  // (the previous cut's)
    OwnedFolder resumed(P("out"));
    EXPECT_TRUE(resumed.Owns("sweep.resolved.json")) << "cut at byte " << cut;
    resumed.WriteFile("sweep.csv", "next");
    EXPECT_TRUE(OwnedFolder(P("out")).Owns("sweep.csv")) << "cut at byte " << cut;
    EXPECT_FALSE(OwnedFolder(P("out")).Owns("running-3")) << "cut at byte " << cut;
  }
}

TEST_F(OwnedFolderTest, RefusesPathsThatAreNotPlainRelativePaths) {
  OwnedFolder folder(P("out"));
  for (const char* bad : {"../elsewhere/x", "/tmp/x", "a//b", "./a", "a/"}) {
    EXPECT_NE(ErrorOf([&] { folder.WriteFile(bad, "x"); }).find("not a plain path"),
              std::string::npos)
        << bad;
  }
}

}  // namespace
}  // namespace commsim
