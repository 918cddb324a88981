#include "analysis/output_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/output_journal.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarkerTitle = "commsim output folder";
constexpr const char* kOwnerFileName = ".commsim-staging";
constexpr const char* kStagingTag = ".commsim-staging.";

std::string ErrorText(int error) { return std::strerror(error); }

// `path` without a trailing separator or `.`/`..` components, made absolute.
fs::path Resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path), ec);
  if (ec) p = fs::absolute(path).lexically_normal();
  if (p.filename().empty() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

// True for `/`, the current folder, the home folder, and their ancestors (e.g. /home).
bool IsSpecialFolder(const fs::path& resolved) {
  std::error_code ec;
  if (resolved == resolved.root_path()) return true;
  const auto within = [&](const fs::path& folder) {
    return (folder.string() + "/").rfind(resolved.string() + "/", 0) == 0;
  };
  if (within(fs::weakly_canonical(fs::current_path(ec), ec))) return true;
  const char* home = std::getenv("HOME");
  return home != nullptr && home[0] != '\0' && within(fs::weakly_canonical(home, ec));
}

std::string StagingPrefix(const fs::path& resolved) {
  return fmt::format(".{}{}", resolved.filename().string(), kStagingTag);
}

// Removes what commsim owns in `dir`, then `dir` itself when that left it empty. Returns false
// when something stayed.
bool RemoveOwnedFolder(const std::string& dir) {
  try {
    OwnedFolder folder(dir);
    folder.RemoveAllOwned();
  } catch (const UserError&) {
    return false;
  }
  return ::rmdir(dir.c_str()) == 0;
}

// Refuses to replace the run folder `path` when it holds anything commsim does not own.
void CheckOnlyOwned(const std::string& path, const std::string& origin) {
  size_t more = 0;
  const std::vector<std::string> foreign = OwnedFolder(path).ForeignEntries("", 10, &more);
  if (foreign.empty()) return;
  throw UserError(fmt::format(
      "{}: holds what commsim did not write ({}); a run folder is replaced only when everything "
      "in it is commsim's own: move them away, or choose another path",
      origin, ListForMessage(foreign, more)));
}

// Removes staging folders of `resolved` whose owner file names a process of this host that is gone.
void RemoveDeadStagings(const fs::path& resolved) {
  const std::string prefix = StagingPrefix(resolved);
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(resolved.parent_path(), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() != prefix.size() + 16) continue;
    if (!e.is_directory(ec) || e.is_symlink(ec)) continue;
    std::ifstream owner(e.path() / kOwnerFileName);
    std::string host;
    long pid = 0;
    if (!(owner >> host >> pid) || OwnerMayBeAlive(host, pid)) continue;
    owner.close();
    RemoveOwnedFolder(e.path().string());
  }
}

void WriteOwnerFile(const fs::path& dir) {
  WriteFileAtomic((dir / kOwnerFileName).string(), fmt::format("{} {}\n", HostName(), ::getpid()));
}

// Puts `staging` at `target`; with `swap`, what was at `target` ends up at `staging`. Returns 0 or
// the errno. File systems without renameat2 (EINVAL) get two plain renames instead.
int MoveIntoPlace(const std::string& staging, const std::string& target, bool swap) {
  const unsigned flags = swap ? RENAME_EXCHANGE : RENAME_NOREPLACE;
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), flags) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (!swap) return ::rename(staging.c_str(), target.c_str()) == 0 ? 0 : errno;
  const std::string aside = staging + ".old";
  if (::rename(target.c_str(), aside.c_str()) != 0) return errno;
  if (::rename(staging.c_str(), target.c_str()) != 0) {
    const int error = errno;
    ::rename(aside.c_str(), target.c_str());
    return error;
  }
  ::rename(aside.c_str(), staging.c_str());  // published; the old content is removed from there
  return 0;
}

}  // namespace

std::string_view OutputKindName(OutputKind kind) {
  switch (kind) {
    case OutputKind::kRun:
      return "run";
    case OutputKind::kSweep:
      return "sweep";
    case OutputKind::kReproduction:
      return "reproduction";
    case OutputKind::kFigures:
      break;
  }
  return "figures";
}

bool ReadMarker(const std::string& dir, OutputKind* kind) {
  const fs::path marker = fs::path(dir) / kMarkerFileName;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(marker, ec)) || fs::file_size(marker, ec) > 4096) {
    return false;
  }
  std::ifstream in(marker);
  std::string line;
  if (!std::getline(in, line) || line != kMarkerTitle) return false;
  while (std::getline(in, line)) {
    for (const OutputKind k :
         {OutputKind::kRun, OutputKind::kSweep, OutputKind::kReproduction, OutputKind::kFigures}) {
      if (line == fmt::format("kind={}", OutputKindName(k))) {
        *kind = k;
        return true;
      }
    }
  }
  return false;
}

void WriteMarker(const std::string& dir, OutputKind kind) {
  WriteFileAtomic((fs::path(dir) / kMarkerFileName).string(),
                  fmt::format("{}\nkind={}\nformat=1\n", kMarkerTitle, OutputKindName(kind)));
}

OutputState CheckOutputTarget(const std::string& path, OutputKind kind, const std::string& origin) {
  std::error_code ec;
  fs::file_status status = fs::symlink_status(path, ec);
  if (!fs::exists(status)) return OutputState::kAbsent;
  if (fs::is_symlink(status)) {
    if (kind == OutputKind::kRun) {
      throw UserError(fmt::format(
          "{}: is a symbolic link; give the path of a folder (a run folder is replaced whole)",
          origin));
    }
    status = fs::status(path, ec);
  }
  if (!fs::is_directory(status)) {
    throw UserError(fmt::format(
        "{}: exists and is not a folder (commsim writes its results into a folder of its own); "
        "choose another path or remove it yourself",
        origin));
  }
  OutputKind found;
  if (ReadMarker(path, &found)) {
    if (found == kind && kind == OutputKind::kRun) CheckOnlyOwned(path, origin);
    if (found == kind) return OutputState::kMarked;
    throw UserError(fmt::format("{}: is a commsim {} folder, not a {} folder; choose another path",
                                origin, OutputKindName(found), OutputKindName(kind)));
  }
  if (IsSpecialFolder(Resolved(path))) {
    throw UserError(fmt::format(
        "{}: is /, the current folder, the home folder or a parent of one of them, and not a "
        "commsim output folder (no .commsim marker); choose another path",
        origin));
  }
  if (fs::is_empty(path, ec) && !ec) return OutputState::kEmptyFolder;
  throw UserError(
      fmt::format("{}: exists and is not a commsim output folder (no .commsim marker); choose "
                  "another path or remove it yourself",
                  origin));
}

void EnsureOutputFolder(const std::string& path, OutputKind kind, const std::string& origin) {
  const OutputState state = CheckOutputTarget(path, kind, origin);
  if (state == OutputState::kMarked) return;
  if (state == OutputState::kAbsent) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) throw UserError(fmt::format("{}: cannot create the folder: {}", origin, ec.message()));
  }
  WriteMarker(path, kind);
}

void CheckMarkedFolder(const std::string& dir, std::string_view command) {
  OutputKind kind;
  if (ReadMarker(dir, &kind)) return;
  throw UserError(fmt::format(
      "{}: not a folder commsim made (no .commsim marker); `commsim {}` writes only into commsim's "
      "own folders: add --out NEW_FOLDER to write its files there",
      dir, command));
}

void CheckFolderWritable(const std::string& dir, const std::string& origin) {
  const std::string probe = (fs::path(dir) / (".commsim-probe." + RandomToken())).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw UserError(fmt::format("{}: cannot write in {}: {}", origin, dir, ErrorText(errno)));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

StagedFolder::StagedFolder(std::string target, OutputKind kind, std::string origin)
    : target_(std::move(target)), kind_(kind), origin_(std::move(origin)) {
  CheckOutputTarget(target_, kind_, origin_);
  const fs::path resolved = Resolved(target_);
  std::error_code ec;
  fs::create_directories(resolved.parent_path(), ec);
  if (ec) {
    throw UserError(fmt::format("{}: cannot create the folder {}: {}", origin_,
                                resolved.parent_path().string(), ec.message()));
  }
  RemoveDeadStagings(resolved);
  int error = EEXIST;
  for (int attempt = 0; attempt < 8 && error == EEXIST; ++attempt) {
    staging_ = (resolved.parent_path() / (StagingPrefix(resolved) + RandomToken())).string();
    error = ::mkdir(staging_.c_str(), 0755) == 0 ? 0 : errno;
  }
  if (error != 0) {
    const std::string parent = resolved.parent_path().string();
    staging_.clear();
    throw UserError(
        fmt::format("{}: cannot create a folder in {}: {}", origin_, parent, ErrorText(error)));
  }
  try {
    WriteOwnerFile(staging_);
    WriteMarker(staging_, kind_);
  } catch (const UserError& e) {
    throw UserError(fmt::format("{}: {}", origin_, e.what()));  // the destructor removes staging_
  }
}

StagedFolder::~StagedFolder() {
  if (published_ || staging_.empty()) return;
  RemoveOwnedFolder(staging_);
}

void StagedFolder::Publish() {
  const OutputState state = CheckOutputTarget(target_, kind_, origin_);
  const fs::path resolved = Resolved(target_);
  const std::string target = resolved.string();
  std::error_code ec;
  fs::remove(fs::path(staging_) / kOwnerFileName, ec);
  // Every file of the staging folder is in place by now: its journal of temporaries has served.
  fs::remove(fs::path(staging_) / kJournalFileName, ec);
  SyncDirectory(staging_);
  if (state == OutputState::kMarked) WriteOwnerFile(resolved);  // so it is cleaned if we die below
  if (const int error = MoveIntoPlace(staging_, target, state != OutputState::kAbsent)) {
    if (state == OutputState::kMarked) fs::remove(resolved / kOwnerFileName, ec);
    throw UserError(fmt::format(
        "{}: cannot publish the results ({} into place): {}", origin_,
        fs::path(staging_).filename().string(),
        error == EEXIST ? "something else appeared there meanwhile" : ErrorText(error)));
  }
  published_ = true;
  if (state != OutputState::kAbsent && !RemoveOwnedFolder(staging_)) {
    // staging_ holds what was at the target: what commsim did not write there stays.
    throw UserError(fmt::format(
        "{}: results published; the previous content held what commsim did not write (it "
        "appeared during the run), kept at {}",
        origin_, staging_));
  }
  SyncDirectory(resolved.parent_path().string());
}

void CheckOutputWritable(const std::string& target, OutputKind kind, const std::string& origin) {
  const OutputState state = CheckOutputTarget(target, kind, origin);
  if (state != OutputState::kAbsent && ::access(target.c_str(), W_OK) != 0) {
    throw UserError(fmt::format("{}: cannot be replaced: {}", origin, ErrorText(errno)));
  }
  StagedFolder probe(target, kind, origin);  // removed when it goes out of scope
}

}  // namespace commsim
