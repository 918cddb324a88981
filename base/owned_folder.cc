#include "base/owned_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/owned_folder_errors.h"
#include "base/owned_record.h"

namespace commsim {

bool IsReservedName(const std::string& name) {
  return name == kMarkerFileName || name == kOwnedRecordFileName || name == ".commsim-journal" ||
         name == ".commsim-staging" || name == ".lock";
}

std::string ListForMessage(const std::vector<std::string>& items, size_t more) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : (i + 1 == items.size() && more == 0 ? " and " : ", ")) + items[i];
  }
  if (more > 0) out += fmt::format(" and {} more", more);
  return out;
}

OwnedFolder::OwnedFolder(std::string root) : root_(std::move(root)) {
  fd_ = UniqueFd(::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd_.ok()) {
    throw UserError(fmt::format("{}: cannot open the folder: {}", root_, std::strerror(errno)));
  }
}

OwnedFolder::OwnedFolder(const OwnedFolder& parent, const std::string& rel)
    : root_(parent.Shown(rel)) {
  parent.CheckRel(rel);
  fd_ = OpenFolderBeneath(parent.fd(), rel);
  if (!fd_.ok()) throw BeneathError(root_, errno);
}

std::string OwnedFolder::Shown(const std::string& rel) const {
  return rel.empty() ? root_ : fmt::format("{}/{}", root_, rel);
}

void OwnedFolder::CheckRel(const std::string& rel) const {
  if (!rel.empty() && PlainComponents(rel).empty()) {
    throw UserError(fmt::format("{}: `{}` is not a plain path inside the folder", root_, rel));
  }
}

std::optional<std::string> OwnedFolder::ReadFile(const std::string& rel, size_t max_bytes) const {
  CheckRel(rel);
  const UniqueFd file = OpenFileBeneath(fd(), rel, O_RDONLY | O_NONBLOCK);
  if (!file.ok()) {
    if (errno == ENOENT) return std::nullopt;
    throw BeneathError(Shown(rel), errno);
  }
  struct stat st {};
  if (::fstat(file.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    throw UserError(fmt::format("{}: not a regular file", Shown(rel)));
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    throw UserError(fmt::format("{}: {} bytes is more than the {} bytes commsim reads here",
                                Shown(rel), st.st_size, max_bytes));
  }
  std::string text(static_cast<size_t>(st.st_size) + 1, '\0');  // one more: to see growth
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::read(file.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw UserError(fmt::format("{}: cannot read: {}", Shown(rel), std::strerror(errno)));
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  if (done > static_cast<size_t>(st.st_size)) {
    throw UserError(fmt::format("{}: grew while it was read", Shown(rel)));
  }
  text.resize(done);
  return text;
}

// The record, opened (created) and locked for one operation.
class OwnedFolder::Locked {
 public:
  explicit Locked(const OwnedFolder& folder)
      : folder_(folder), record_(folder.fd(), folder.root(), true) {}
  OwnedRecord& record() { return record_; }

  UniqueFd MakeFolder(const std::string& rel) {
    std::vector<std::string> made;
    UniqueFd sub = OpenFolderBeneath(folder_.fd(), rel, /*create=*/true, &made);
    const int error = errno;
    for (const std::string& m : made) {
      if (const std::optional<OwnedIdentity> id = IdentityNow(folder_.fd(), m)) record_.Add(m, *id);
    }
    if (!sub.ok()) throw BeneathError(folder_.Shown(rel), error);
    return sub;
  }

  void CheckReplaceable(const std::string& rel) {
    struct stat st {};
    std::string folder, name;
    SplitLast(rel, &folder, &name);
    const UniqueFd parent = OpenFolderBeneath(folder_.fd(), folder);
    if (!parent.ok()) {
      if (errno == ENOENT) return;
      throw BeneathError(folder_.Shown(folder), errno);
    }
    if (::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;  // absent
    if (record_.Owns(folder_.fd(), rel) && S_ISREG(st.st_mode)) return;
    throw NotOwnedError(folder_.Shown(rel), S_ISLNK(st.st_mode), record_.entries().count(rel) > 0);
  }

  void Record(const std::string& rel) { RecordAs(rel, folder_.fd(), rel); }
  // Records `rel` with the identity the entry `source` below `source_fd` has now.
  void RecordAs(const std::string& rel, int source_fd, const std::string& source,
                std::optional<uint32_t> crc = std::nullopt) {
    const std::optional<OwnedIdentity> id = IdentityNow(source_fd, source, crc);
    if (!id) throw UserError(fmt::format("{}: vanished as it was written", folder_.Shown(rel)));
    record_.Add(rel, *id);
  }

 private:
  const OwnedFolder& folder_;
  OwnedRecord record_;
};

void OwnedFolder::WriteFile(const std::string& rel, std::string_view content) {
  CheckRel(rel);
  std::string folder, name;
  SplitLast(rel, &folder, &name);
  Locked locked(*this);
  const UniqueFd sub = locked.MakeFolder(folder);
  locked.CheckReplaceable(rel);
  AtomicFileWriter writer(sub.get(), name, Shown(rel), root_);
  writer.Write(content);
  const uint32_t crc = Crc32Of(content);
  // Recorded under its final name before the rename (which keeps inode, size and mtime), so that
  // a kill between the two never leaves commsim's own file unrecorded.
  writer.Commit([&] { locked.RecordAs(rel, sub.get(), writer.temp_name(), crc); });
}

UniqueFd OwnedFolder::MakeFolder(const std::string& rel) {
  CheckRel(rel);
  Locked locked(*this);
  return locked.MakeFolder(rel);
}

void OwnedFolder::Record(const std::string& rel) {
  CheckRel(rel);
  Locked locked(*this);
  locked.Record(rel);
}

void OwnedFolder::CheckFolderIfPresent(const std::string& rel) const {
  CheckRel(rel);
  const UniqueFd sub = OpenFolderBeneath(fd(), rel);
  if (!sub.ok() && errno != ENOENT) throw BeneathError(Shown(rel), errno);
}

bool OwnedFolder::Owns(const std::string& rel) const {
  const OwnedRecord record(fd(), root_, false);
  return record.exists() && record.Owns(fd(), rel);
}

void OwnedFolder::CheckReplaceable(const std::string& rel) const {
  CheckRel(rel);
  Locked locked(*this);
  locked.CheckReplaceable(rel);
}

}  // namespace commsim
