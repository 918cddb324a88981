// CleanJournal removes exactly the listed temporaries of dead writers, and nothing else.
#include "base/output_journal.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;

long DeadPid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

TEST(OutputJournalTest, RemovesOnlyListedTemporariesOfDeadProcesses) {
  const fs::path root = fs::temp_directory_path() / ("journal_test_" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path dir = root / "sweep";
  fs::create_directories(dir / "points");
  const std::string hex = "0123456789abcdef";
  const long dead = DeadPid();
  const std::string host = HostName();
  const std::vector<std::string> files = {
      "points/1.csv.tmp." + hex,  // listed, dead writer: removed
      "points/2.csv.tmp." + hex,  // listed, live writer (this process): kept
      "points/3.csv.tmp." + hex,  // listed for another host: kept
      "points/4.csv.tmp." + hex,  // not listed: kept
      "notes.old.1234",           // looks like an old leftover, not listed: kept
      "x.tmp.99",                 // idem
      "notes.txt.tmp.99",         // listed with a dead pid but not a commsim temporary name: kept
  };
  for (const std::string& f : files) std::ofstream(dir / f) << "user data";
  fs::create_directories(dir / ("folder.tmp." + hex));  // listed, but a folder: kept
  std::ofstream(root / ("outside.tmp." + hex)) << "not in the folder";  // listed via "..": kept
  std::ofstream(dir / kJournalFileName)
      << host << " " << dead << " points/1.csv.tmp." << hex << "\n"
      << host << " " << ::getpid() << " points/2.csv.tmp." << hex << "\n"
      << "elsewhere.example " << dead << " points/3.csv.tmp." << hex << "\n"
      << host << " " << dead << " notes.txt.tmp.99\n"
      << host << " " << dead << " folder.tmp." << hex << "\n"
      << host << " " << dead << " ../outside.tmp." << hex << "\n"
      << host << " " << dead << " " << (root / ("outside.tmp." + hex)).string() << "\n"
      << "garbage line\n";

  EXPECT_EQ(CleanJournal(dir.string()), 1u);
  EXPECT_FALSE(fs::exists(dir / files[0]));
  for (size_t i = 1; i < files.size(); ++i) EXPECT_TRUE(fs::exists(dir / files[i])) << files[i];
  EXPECT_TRUE(fs::exists(dir / ("folder.tmp." + hex)));
  EXPECT_TRUE(fs::exists(root / ("outside.tmp." + hex)));
  // Only the lines of writers that may be alive remain.
  EXPECT_EQ(Read(dir / kJournalFileName),
            host + " " + std::to_string(::getpid()) + " points/2.csv.tmp." + hex + "\n" +
                "elsewhere.example " + std::to_string(dead) + " points/3.csv.tmp." + hex + "\n");
  fs::remove_all(root);
}

TEST(OutputJournalTest, JournalTemporaryWritesARelativeLineAndRefusesOutsidePaths) {
  const fs::path dir = test_files::FreshDir("journal_add");
  JournalTemporary(dir.string(), (dir / "points" / "7.csv.tmp.0123456789abcdef").string());
  EXPECT_EQ(Read(dir / kJournalFileName),
            HostName() + " " + std::to_string(::getpid()) + " points/7.csv.tmp.0123456789abcdef\n");
  EXPECT_ANY_THROW(JournalTemporary(dir.string(), "/etc/passwd.tmp.0123456789abcdef"));
  EXPECT_ANY_THROW(JournalTemporary((dir / "sub").string(), (dir / "x").string()));
  fs::remove_all(dir);
}

TEST(OutputJournalTest, TemporaryNamesNeedSixteenLowerCaseHexDigits) {
  EXPECT_TRUE(IsTemporaryName("3.csv.tmp.0123456789abcdef"));
  EXPECT_FALSE(IsTemporaryName("3.csv.tmp.12345"));  // the old pid-only names
  EXPECT_FALSE(IsTemporaryName("3.csv.tmp.0123456789ABCDEF"));
  EXPECT_FALSE(IsTemporaryName("3.csv.tmp.0123456789abcdef0"));
  EXPECT_FALSE(IsTemporaryName(".tmp.0123456789abcdef"));
}

}  // namespace
}  // namespace commsim
