// Test helpers for tests that read and write files (any module's *_test.cc): whole-file reads,
// folder listings and a fresh temporary folder per test. Header-only; tests only.
#ifndef COMMSIM_BASE_FILE_TEST_UTIL_H_
#define COMMSIM_BASE_FILE_TEST_UTIL_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>

// Not commsim::testing: inside namespace commsim that name would hide gtest's ::testing.
namespace commsim::test_files {

// Runs `body` in a forked child (an exception ends it like a return), which then exits with 0;
// returns the signal that ended the child, 0 when it exited. For crash tests: the child arms a
// kCrash write fault (base/atomic_file.h) and writes; the parent expects SIGKILL.
inline int SignalOfChild(const std::function<void()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    try {
      body();
    } catch (...) {
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

// The bytes of file `p` ("" when it cannot be opened).
inline std::string Read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The names of the entries of `dir` (not recursive).
inline std::set<std::string> Names(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.insert(e.path().filename().string());
  }
  return names;
}

// A path for the running test that does not exist: <tmp>/<prefix>_<pid>_<test name> ('/' of
// parameterised test names becomes '_'), removed first if a crashed run left it behind.
inline std::filesystem::path UnusedPath(const std::string& prefix) {
  std::string name = prefix + "_" + std::to_string(::getpid()) + "_" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : name) c = c == '/' ? '_' : c;
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(path);
  return path;
}

// UnusedPath(prefix), created as an empty folder.
inline std::filesystem::path FreshDir(const std::string& prefix) {
  const std::filesystem::path dir = UnusedPath(prefix);
  std::filesystem::create_directories(dir);
  return dir;
}

// Removes `dir` unless it is empty or COMMSIM_KEEP_TEST_DIRS is set (to look at what a test wrote).
inline void RemoveDir(const std::filesystem::path& dir) {
  if (!dir.empty() && !std::getenv("COMMSIM_KEEP_TEST_DIRS")) std::filesystem::remove_all(dir);
}

// A fixture with a fresh folder dir_ per test, FreshDir("commsim_<test suite>"), removed after
// it (see RemoveDir). A fixture that overrides SetUp or TearDown calls these too.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(std::string("commsim_") +
                    ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name());
  }
  void TearDown() override {
    if (read_only_made_) std::system(("chattr -R -i '" + dir_.string() + "' 2>/dev/null").c_str());
    RemoveDir(dir_);
  }
  // The path of `name` inside dir_.
  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  // Creates the folder `name` in dir_ and makes it read-only: owner r-x, and immutable
  // (chattr +i) when running as root, whom permissions do not stop. False when a file can still
  // be created in it (root without chattr): the caller skips. TearDown undoes it.
  bool MakeReadOnlyDir(const std::string& name) {
    const std::string dir = P(name);
    std::filesystem::create_directories(dir);
    std::filesystem::permissions(
        dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    read_only_made_ = true;
    if (::geteuid() == 0) std::system(("chattr +i '" + dir + "' 2>/dev/null").c_str());
    const int probe = ::open((dir + "/probe").c_str(), O_CREAT | O_WRONLY, 0644);
    if (probe < 0) return true;
    ::close(probe);
    std::filesystem::remove(dir + "/probe");
    return false;
  }

  std::filesystem::path dir_;

 private:
  bool read_only_made_ = false;
};

}  // namespace commsim::test_files

#endif  // COMMSIM_BASE_FILE_TEST_UTIL_H_
