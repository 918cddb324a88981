#include "base/output_journal.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <vector>

#include "base/beneath.h"
#include "base/error.h"
#include "base/fd_io.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

std::string JournalPath(const std::string& dir) {
  return (fs::path(dir) / kJournalFileName).string();
}

// An open, exclusively flock-ed journal; closed (and unlocked) on destruction.
class LockedJournal {
 public:
  LockedJournal(const std::string& dir, int flags) : path_(JournalPath(dir)) {
    fd_ = ::open(path_.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~LockedJournal() {
    if (fd_ >= 0) ::close(fd_);
  }
  LockedJournal(const LockedJournal&) = delete;
  LockedJournal& operator=(const LockedJournal&) = delete;
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

// True when `rel` is a relative path that stays inside the folder.
bool InsideFolder(const fs::path& rel) {
  if (rel.empty() || rel.is_absolute()) return false;
  for (const fs::path& part : rel) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

struct Line {
  std::string host;
  long pid = 0;
  std::string rel;
};

bool ParseLine(const std::string& text, Line* line) {
  const size_t a = text.find(' ');
  const size_t b = a == std::string::npos ? a : text.find(' ', a + 1);
  if (b == std::string::npos) return false;
  line->host = text.substr(0, a);
  const std::string pid = text.substr(a + 1, b - a - 1);
  if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  line->pid = std::stol(pid);
  line->rel = text.substr(b + 1);
  return !line->host.empty() && !line->rel.empty();
}

// Removes the temporary `rel` of `dir` when it is a regular file, reaching it without following
// any link (a link on the way, or at its place, leaves everything as it is).
bool RemoveTemporary(const std::string& dir, const std::string& rel) {
  const UniqueFd root(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  std::string folder, name;
  SplitLast(rel, &folder, &name);
  const UniqueFd parent = root.ok() ? OpenFolderBeneath(root.get(), folder) : UniqueFd();
  struct stat st {};
  if (!parent.ok() || ::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISREG(st.st_mode)) {
    return false;  // renamed into place, already removed, or not a temporary file
  }
  return ::unlinkat(parent.get(), name.c_str(), 0) == 0;
}

}  // namespace

std::string HostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown-host";
  for (char* c = name; *c; ++c) {
    if (*c == ' ' || *c == '\n') *c = '_';
  }
  return name;
}

bool OwnerMayBeAlive(const std::string& host, long pid) {
  if (host != HostName() || pid <= 0) return true;
  if (pid == static_cast<long>(::getpid())) return true;
  return !(::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
}

bool IsTemporaryName(const std::string& name) {
  const size_t at = name.rfind(".tmp.");
  if (at == std::string::npos || at == 0) return false;
  const std::string token = name.substr(at + 5);
  return token.size() == 16 && token.find_first_not_of("0123456789abcdef") == std::string::npos;
}

void JournalTemporary(const std::string& dir, const std::string& path) {
  const fs::path base = fs::absolute(dir).lexically_normal();
  const fs::path rel = fs::absolute(path).lexically_normal().lexically_relative(base);
  const std::string rel_text = rel.string();
  if (!InsideFolder(rel) || rel_text.find('\n') != std::string::npos) {
    throw UserError(fmt::format("{}: not inside the output folder {}", path, dir));
  }
  LockedJournal journal(dir, O_WRONLY | O_APPEND | O_CREAT);
  const std::string line = fmt::format("{} {} {}\n", HostName(), ::getpid(), rel_text);
  if (journal.fd() < 0 || !WriteAll(journal.fd(), line)) {
    throw UserError(fmt::format("{}: cannot write the folder's journal: {}", journal.path(),
                                std::strerror(errno)));
  }
}

size_t CleanJournal(const std::string& dir) {
  LockedJournal journal(dir, O_RDWR);
  if (journal.fd() < 0) return 0;  // no journal yet
  std::istringstream in(ReadAll(journal.fd()));
  std::string kept;
  size_t removed = 0;
  std::string text;
  while (std::getline(in, text)) {
    Line line;
    if (!ParseLine(text, &line)) continue;  // not ours to interpret: dropped, never acted on
    const fs::path rel(line.rel);
    if (!InsideFolder(rel) || !IsTemporaryName(rel.filename().string())) continue;
    if (OwnerMayBeAlive(line.host, line.pid)) {  // it may still be writing (or about to)
      kept += text + "\n";
      continue;
    }
    if (RemoveTemporary(dir, line.rel)) ++removed;
  }
  if (::ftruncate(journal.fd(), 0) != 0 || ::lseek(journal.fd(), 0, SEEK_SET) != 0 ||
      !WriteAll(journal.fd(), kept)) {
    throw UserError(fmt::format("{}: cannot rewrite the folder's journal: {}", journal.path(),
                                std::strerror(errno)));
  }
  return removed;
}

}  // namespace commsim
