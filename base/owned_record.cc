#include "base/owned_record.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "base/error.h"
#include "base/fd_io.h"

namespace commsim {
namespace {

constexpr const char* kRecordTitle = "commsim ownership record, format 1";

std::string Line(const std::string& rel, const OwnedIdentity& id) {
  if (id.type == 'd') return fmt::format("d {} {} - - - {}\n", id.device, id.inode, rel);
  return fmt::format("f {} {} {} {} {} {}\n", id.device, id.inode, id.size_bytes, id.mtime_ns,
                     id.crc32 ? fmt::format("{:08x}", *id.crc32) : "-", rel);
}

// Parses one record line; false for anything that is not exactly a line Line() writes.
bool ParseLine(const std::string& text, std::string* rel, OwnedIdentity* id) {
  std::istringstream in(text);
  std::string type, size, mtime, crc;
  if (!(in >> type >> id->device >> id->inode >> size >> mtime >> crc) || type.size() != 1) {
    return false;
  }
  in.get();  // the one space before the path
  std::getline(in, *rel);
  if (PlainComponents(*rel).empty()) return false;
  id->type = type[0];
  if (id->type == 'd') return size == "-" && mtime == "-" && crc == "-";
  if (id->type != 'f') return false;
  try {
    id->size_bytes = std::stoull(size);
    id->mtime_ns = std::stoll(mtime);
    if (crc != "-") id->crc32 = static_cast<uint32_t>(std::stoul(crc, nullptr, 16));
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

std::optional<uint32_t> Crc32OfFile(int fd, uint64_t size_bytes) {
  if (size_bytes > kChecksumMaxBytes) return std::nullopt;
  uLong crc = crc32(0L, Z_NULL, 0);
  char buffer[65536];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    crc = crc32(crc, reinterpret_cast<const Bytef*>(buffer), static_cast<uInt>(n));
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace

uint32_t Crc32Of(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (!bytes.empty()) {
    const size_t chunk = std::min<size_t>(bytes.size(), 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(chunk));
    bytes.remove_prefix(chunk);
  }
  return static_cast<uint32_t>(crc);
}

std::optional<OwnedIdentity> IdentityNow(int dir_fd, const std::string& rel,
                                         std::optional<uint32_t> known_crc) {
  std::string folder, name;
  SplitLast(rel, &folder, &name);
  const UniqueFd parent = OpenFolderBeneath(dir_fd, folder);
  struct stat st {};
  if (!parent.ok() || ::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return std::nullopt;
  }
  OwnedIdentity id;
  id.device = static_cast<uint64_t>(st.st_dev);
  id.inode = static_cast<uint64_t>(st.st_ino);
  if (S_ISDIR(st.st_mode)) {
    id.type = 'd';
    return id;
  }
  if (!S_ISREG(st.st_mode)) return std::nullopt;
  id.size_bytes = static_cast<uint64_t>(st.st_size);
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  if (id.size_bytes <= kChecksumMaxBytes) {
    if (known_crc) {
      id.crc32 = known_crc;
    } else {
      const UniqueFd file(::openat(parent.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
      if (file.ok()) id.crc32 = Crc32OfFile(file.get(), id.size_bytes);
    }
  }
  return id;
}

OwnedRecord::OwnedRecord(int dir_fd, const std::string& shown, bool create)
    : shown_(fmt::format("{}/{}", shown, kOwnedRecordFileName)) {
  const int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0);
  fd_ = UniqueFd(::openat(dir_fd, kOwnedRecordFileName, flags, 0644));
  if (!fd_.ok()) {
    if (errno == ENOENT && !create) return;
    throw UserError(fmt::format("{}: cannot open the ownership record: {}", shown_,
                                errno == ELOOP ? "it is a symbolic link" : std::strerror(errno)));
  }
  while (::flock(fd_.get(), LOCK_EX) != 0 && errno == EINTR) {
  }
  std::string content = ReadAll(fd_.get());
  content.resize(content.rfind('\n') + 1);  // a line a kill cut short is not a line (npos + 1 = 0)
  std::istringstream in(content);
  std::string text;
  while (std::getline(in, text)) {
    std::string rel;
    OwnedIdentity id;
    if (text.starts_with("x ") && !PlainComponents(text.substr(2)).empty()) {
      entries_.erase(text.substr(2));
      continue;
    }
    if (!ParseLine(text, &rel, &id)) continue;
    Identities& ids = entries_[rel];
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
}

std::optional<OwnedIdentity> OwnedRecord::Match(int dir_fd, const std::string& rel) const {
  const auto it = entries_.find(rel);
  if (it == entries_.end()) return std::nullopt;
  const std::optional<OwnedIdentity> now = IdentityNow(dir_fd, rel);
  if (!now || std::find(it->second.begin(), it->second.end(), *now) == it->second.end()) {
    return std::nullopt;
  }
  return now;
}

void OwnedRecord::Add(const std::string& rel, const OwnedIdentity& id) {
  if (!fd_.ok() || PlainComponents(rel).empty() || rel.find('\n') != std::string::npos) {
    throw UserError(fmt::format("{}: cannot record {}", shown_, rel));
  }
  Identities& ids = entries_[rel];
  if (std::find(ids.begin(), ids.end(), id) != ids.end()) return;
  Append(Line(rel, id));
  ids.push_back(id);
}

void OwnedRecord::Append(std::string lines) {
  const off_t end = ::lseek(fd_.get(), 0, SEEK_END);
  char last = '\n';
  if (end == 0) {
    lines = std::string(kRecordTitle) + "\n" + lines;
  } else if (end < 0 || ::pread(fd_.get(), &last, 1, end - 1) != 1) {
    last = 0;  // unknown: start a line of our own
  }
  if (last != '\n') lines = "\n" + lines;
  if (end < 0 || !WriteAll(fd_.get(), lines)) {
    throw UserError(
        fmt::format("{}: cannot write the ownership record: {}", shown_, std::strerror(errno)));
  }
}

void OwnedRecord::Rewrite(std::map<std::string, Identities> remaining) {
  if (!fd_.ok()) return;
  std::string lines;
  for (const auto& [rel, ids] : entries_) {
    const auto kept = remaining.find(rel);
    if (kept != remaining.end() && kept->second == ids) continue;
    lines += "x " + rel + "\n";
    if (kept == remaining.end()) continue;
    for (const OwnedIdentity& id : kept->second) lines += Line(rel, id);
  }
  if (!lines.empty()) Append(std::move(lines));
  entries_ = std::move(remaining);
}

}  // namespace commsim
