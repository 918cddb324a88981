#include "scenarios/sweep_running.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "base/error.h"
#include "base/output_journal.h"
#include "base/owned_folder.h"

namespace commsim {

namespace fs = std::filesystem;

std::string ThisProcess() { return fmt::format("host {}, pid {}", HostName(), ::getpid()); }

std::string RunningEntryName(size_t point) { return fmt::format("points/{}.running", point); }

std::string RunningFile(const std::string& dir, size_t point) {
  return (fs::path(dir) / RunningEntryName(point)).string();
}

void WriteRunningEntry(const std::string& dir, size_t point, const std::string& who) {
  OwnedFolder(dir).WriteFile(RunningEntryName(point), who + "\n");
}

void RemoveRunningEntry(const std::string& dir, size_t point) {
  try {
    OwnedFolder(dir).RemoveOwned(RunningEntryName(point));
  } catch (const UserError&) {  // what cannot be removed stays; it is reported when read
  }
}

std::optional<std::string> ReadRunningEntry(const std::string& dir, size_t point) {
  std::optional<std::string> text;
  try {
    text = OwnedFolder(dir).ReadFile(RunningEntryName(point), 4096);
  } catch (const UserError&) {
    return std::nullopt;  // a link or something else commsim did not write: not a running entry
  }
  if (!text) return std::nullopt;
  std::string line = text->substr(0, text->find('\n'));
  if (line.size() > 200) line.resize(200);
  return line;
}

}  // namespace commsim
