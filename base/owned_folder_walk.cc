// OwnedFolder's removals and its listing of what it does not own (owned_folder.h).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/output_journal.h"
#include "base/owned_folder.h"
#include "base/owned_record.h"

namespace commsim {
namespace {

bool AtOrBelow(const std::string& rel, const std::string& prefix) {
  return prefix.empty() || rel == prefix ||
         (rel.size() > prefix.size() && rel.compare(0, prefix.size(), prefix) == 0 &&
          rel[prefix.size()] == '/');
}

size_t Depth(const std::string& rel) { return std::count(rel.begin(), rel.end(), '/'); }

std::string Join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }

// The names in the folder `fd`, sorted (so listings do not depend on the file system's order).
std::vector<std::string> Names(int fd) {
  std::vector<std::string> names;
  const int copy = ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // its own position
  DIR* dir = copy < 0 ? nullptr : ::fdopendir(copy);
  if (dir == nullptr) {
    if (copy >= 0) ::close(copy);
    return names;
  }
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

bool HasMarker(int dir_fd, const std::string& rel) {
  const UniqueFd sub = OpenFolderBeneath(dir_fd, rel);
  struct stat st {};
  return sub.ok() && ::fstatat(sub.get(), kMarkerFileName, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISREG(st.st_mode);
}

// Removes `rel` (a file, or with `folder` an empty folder) below `dir_fd`; returns errno or 0.
int RemoveBeneath(int dir_fd, const std::string& rel, bool folder) {
  std::string parent, name;
  SplitLast(rel, &parent, &name);
  const UniqueFd p = OpenFolderBeneath(dir_fd, parent);
  if (!p.ok()) return errno;
  return ::unlinkat(p.get(), name.c_str(), folder ? AT_REMOVEDIR : 0) == 0 ? 0 : errno;
}

// Lists what the folder `root_fd` (whose record is `record`) does not own at or below `rel`,
// naming entries with `shown_prefix` before them; a recorded folder that is itself a commsim
// folder (a run kept in a sweep) is listed by its own record.
struct ForeignList {
  size_t limit;
  std::vector<std::string> found;
  size_t more = 0;

  void Add(const std::string& rel) {
    if (found.size() < limit) {
      found.push_back(rel);
    } else {
      ++more;
    }
  }

  void Walk(int root_fd, const OwnedRecord& record, const std::string& rel,
            const std::string& shown_prefix) {
    const UniqueFd fd = OpenFolderBeneath(root_fd, rel);
    if (!fd.ok()) return;
    for (const std::string& name : Names(fd.get())) {
      const std::string child = Join(rel, name);
      if ((rel.empty() && IsReservedName(name)) || IsTemporaryName(name)) continue;
      const std::optional<OwnedIdentity> owned = record.Match(root_fd, child);
      if (!owned) {
        Add(Join(shown_prefix, child));
      } else if (owned->type == 'd') {
        if (!HasMarker(root_fd, child)) {
          Walk(root_fd, record, child, shown_prefix);
          continue;
        }
        const UniqueFd inner = OpenFolderBeneath(root_fd, child);
        if (!inner.ok()) continue;
        const OwnedRecord inner_record(inner.get(), child, false);
        Walk(inner.get(), inner_record, "", Join(shown_prefix, child));
      }
    }
  }
};

}  // namespace

std::vector<KeptEntry> OwnedFolder::RemoveOwned(const std::string& rel) {
  CheckRel(rel);
  OwnedRecord record(fd(), root_, false);
  if (!record.exists()) return {};
  std::vector<std::string> targets;
  for (const auto& entry : record.entries()) {
    if (AtOrBelow(entry.first, rel)) targets.push_back(entry.first);
  }
  std::sort(targets.begin(), targets.end(), [](const std::string& a, const std::string& b) {
    return Depth(a) != Depth(b) ? Depth(a) > Depth(b) : a > b;
  });
  std::map<std::string, OwnedRecord::Identities> remaining = record.entries();
  std::vector<KeptEntry> kept;
  for (const std::string& path : targets) {
    const std::optional<OwnedIdentity> id = record.Match(fd(), path);
    if (!id) {
      if (IdentityNow(fd(), path)) kept.push_back({path, "changed since commsim wrote it"});
      remaining.erase(path);  // gone, or no longer commsim's
      continue;
    }
    if (id->type == 'd' && HasMarker(fd(), path)) {
      OwnedFolder inner(*this, path);
      for (KeptEntry& k : inner.RemoveAllOwned()) kept.push_back({Join(path, k.rel), k.why});
    }
    const int error = RemoveBeneath(fd(), path, id->type == 'd');
    if (error == 0 || error == ENOENT) {
      remaining.erase(path);
    } else if (error == ENOTEMPTY || error == EEXIST) {
      kept.push_back({path, "holds files commsim did not write"});
    } else {
      kept.push_back({path, std::strerror(error)});
    }
  }
  record.Rewrite(std::move(remaining));
  return kept;
}

std::vector<KeptEntry> OwnedFolder::RemoveAllOwned() {
  std::vector<KeptEntry> kept = RemoveOwned("");
  CleanJournal(root_);
  for (const char* name :
       {kMarkerFileName, ".commsim-journal", ".commsim-staging", ".lock", kOwnedRecordFileName}) {
    struct stat st {};
    if (::fstatat(fd(), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) {
      ::unlinkat(fd(), name, 0);
    }
  }
  return kept;
}

bool OwnedFolder::HasRecord() const { return OwnedRecord(fd(), root_, false).exists(); }

std::vector<std::string> OwnedFolder::OwnedEntries(const std::string& rel) const {
  CheckRel(rel);
  const OwnedRecord record(fd(), root_, false);
  std::vector<std::string> owned;
  for (const auto& entry : record.entries()) {
    if (AtOrBelow(entry.first, rel) && record.Owns(fd(), entry.first)) owned.push_back(entry.first);
  }
  return owned;
}

std::vector<std::string> OwnedFolder::ForeignEntries(const std::string& rel, size_t limit,
                                                     size_t* more) const {
  CheckRel(rel);
  const OwnedRecord record(fd(), root_, false);
  ForeignList list{limit, {}, 0};
  list.Walk(fd(), record, rel, "");
  if (more) *more = list.more;
  return list.found;
}

}  // namespace commsim
