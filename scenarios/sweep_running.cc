#include "scenarios/sweep_running.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/atomic_file.h"
#include "sim/output_journal.h"

namespace commsim {

namespace fs = std::filesystem;

std::string ThisProcess() { return fmt::format("host {}, pid {}", HostName(), ::getpid()); }

std::string RunningFile(const std::string& dir, size_t point) {
  return (fs::path(dir) / "points" / fmt::format("{}.running", point)).string();
}

bool IsRunningFileName(const std::string& name) {
  const size_t dot = name.find('.');
  return dot != std::string::npos && dot > 0 && name.substr(dot) == ".running" &&
         name.substr(0, dot).find_first_not_of("0123456789") == std::string::npos;
}

void WriteRunningEntry(const std::string& dir, size_t point, const std::string& who) {
  WriteFileAtomic(RunningFile(dir, point), who + "\n", dir);
}

void RemoveRunningEntry(const std::string& dir, size_t point) {
  std::error_code ec;
  const fs::path file = RunningFile(dir, point);
  const fs::file_status status = fs::symlink_status(file, ec);
  if (fs::is_regular_file(status) || fs::is_symlink(status)) fs::remove(file, ec);
}

std::optional<std::string> ReadRunningEntry(const std::string& dir, size_t point) {
  std::error_code ec;
  const fs::path file = RunningFile(dir, point);
  if (!fs::is_regular_file(fs::symlink_status(file, ec))) return std::nullopt;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  if (line.size() > 200) line.resize(200);
  return line;
}

}  // namespace commsim
