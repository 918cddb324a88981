// The ownership record of a commsim folder: which files and folders commsim wrote there.
//
// `<folder>/.commsim-owned` holds one line per entry, appended once the entry is in place:
//   commsim ownership record, format 1            (first line)
//   f <dev> <ino> <size> <mtime_ns> <crc32|-> <relative path>
//   d <dev> <ino> - - - <relative path>
//   x <relative path>                             (forget every line above for this path)
// The record is only ever appended to, never truncated or rewritten, so a kill at any byte leaves
// every line written before intact; a line cut by a kill is ignored, and the next write starts on
// a line of its own.
// A path may have several lines: it is commsim's while its identity now is any of them (a line is
// written before the file is renamed into place, so that a kill between the two never leaves
// commsim's own file unrecorded; the previous version's line stays valid meanwhile). An entry's
// identity is its device and
// inode, and for a file also its size, modification time and, up to kChecksumMaxBytes, its crc32:
// an entry whose identity no longer matches (replaced, edited, turned into a link or a folder) is
// no longer commsim's, and nothing acts on it. Every read and write of the record holds an
// exclusive flock on it, so processes sharing a folder (a sweep and its `sweep-point`s) keep each
// other's lines. A line that does not parse is ignored (never acted on).
#ifndef COMMSIM_BASE_OWNED_RECORD_H_
#define COMMSIM_BASE_OWNED_RECORD_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/beneath.h"

namespace commsim {

inline constexpr const char* kOwnedRecordFileName = ".commsim-owned";
inline constexpr uint64_t kChecksumMaxBytes = uint64_t{64} << 20;

struct OwnedIdentity {
  char type = 'f';  // 'f' a regular file, 'd' a folder
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size_bytes = 0;        // files only
  int64_t mtime_ns = 0;           // files only
  std::optional<uint32_t> crc32;  // files up to kChecksumMaxBytes
  bool operator==(const OwnedIdentity&) const = default;
};

// crc32 (zlib's) of `bytes`.
uint32_t Crc32Of(std::string_view bytes);

// The identity of the entry `rel` below `dir_fd` as it is now, without following links; nullopt
// when it is absent or neither a regular file nor a folder. `known_crc` spares re-reading a file
// whose content the caller just wrote.
std::optional<OwnedIdentity> IdentityNow(int dir_fd, const std::string& rel,
                                         std::optional<uint32_t> known_crc = std::nullopt);

// The record of the folder `dir_fd`, locked for the lifetime of this object.
class OwnedRecord {
 public:
  // Opens (creating with `create`) and locks the record. `shown` names the folder in errors.
  // Throws UserError when the record cannot be opened (or is a link).
  OwnedRecord(int dir_fd, const std::string& shown, bool create);
  bool exists() const { return fd_.ok(); }

  using Identities = std::vector<OwnedIdentity>;
  const std::map<std::string, Identities>& entries() const { return entries_; }
  // The identity `rel` has now when it is one recorded for it; nullopt otherwise.
  std::optional<OwnedIdentity> Match(int dir_fd, const std::string& rel) const;
  bool Owns(int dir_fd, const std::string& rel) const { return Match(dir_fd, rel).has_value(); }

  // Appends (and keeps in memory) the line of `rel` with identity `id` (nothing when that
  // identity is recorded already). Throws UserError.
  void Add(const std::string& rel, const OwnedIdentity& id);
  // Makes the record hold exactly `remaining` (what is still commsim's after a removal): appends
  // an `x` line for every path whose identities go, and the lines of those it keeps. Throws
  // UserError.
  void Rewrite(std::map<std::string, Identities> remaining);

 private:
  std::string shown_;
  UniqueFd fd_;
  // Appends `lines` (whole lines), first ending a line a kill cut short. Throws UserError.
  void Append(std::string lines);

  std::map<std::string, Identities> entries_;
};

}  // namespace commsim

#endif  // COMMSIM_BASE_OWNED_RECORD_H_
