#include "analysis/subprocess.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "base/error.h"

extern char** environ;

namespace commsim {
namespace {

namespace fs = std::filesystem;

// Owns posix_spawn file actions for the lifetime of one spawn.
class SpawnActions {
 public:
  SpawnActions() { ::posix_spawn_file_actions_init(&actions_); }
  ~SpawnActions() { ::posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

std::string ReadAll(int fd, size_t max_bytes) {
  std::string output;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const size_t room = max_bytes - std::min(max_bytes, output.size());
    output.append(buffer, std::min(room, static_cast<size_t>(n)));
  }
  return output;
}

}  // namespace

ProgramResult RunProgram(const std::string& program, const std::vector<std::string>& args,
                         const std::string& working_dir, size_t max_output_bytes) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw UserError(fmt::format("{}: cannot create a pipe: {}", program, std::strerror(errno)));
  }
  SpawnActions actions;
  ::posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_adddup2(actions.get(), fds[1], 1);
  ::posix_spawn_file_actions_adddup2(actions.get(), fds[1], 2);
  ::posix_spawn_file_actions_addchdir_np(actions.get(), working_dir.c_str());

  std::vector<std::string> argv_text = {program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int spawn_error =
      ::posix_spawn(&pid, program.c_str(), actions.get(), nullptr, argv.data(), environ);
  ::close(fds[1]);
  if (spawn_error != 0) {
    ::close(fds[0]);
    throw UserError(
        fmt::format("{}: cannot run in {}: {}", program, working_dir, std::strerror(spawn_error)));
  }
  ProgramResult result;
  result.output = ReadAll(fds[0], max_output_bytes);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw UserError(
          fmt::format("{}: cannot wait for the child: {}", program, std::strerror(errno)));
    }
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    // posix_spawn reports a failed chdir or exec in the child as exit status 127.
    if (result.exit_code == 127 && !fs::is_directory(working_dir)) {
      throw UserError(fmt::format("{}: cannot run in {}: not a folder", program, working_dir));
    }
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

std::string FindProgram(const std::string& program) {
  if (program.empty()) return "";
  if (program.find('/') != std::string::npos) {
    if (::access(program.c_str(), X_OK) != 0 || fs::is_directory(program)) return "";
    return fs::absolute(program).string();
  }
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    const std::string candidate = (fs::path(dir.empty() ? "." : dir) / program).string();
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) {
      return fs::absolute(candidate).string();
    }
    start = end + 1;
  }
  return "";
}

}  // namespace commsim
