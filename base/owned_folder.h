// A commsim folder, opened once: every write and every removal inside it goes through here.
//
// The rules that keep a user's files safe (docs/outputs.md, "What commsim owns"):
//   - commsim writes an entry only where nothing is, or over an entry its ownership record
//     (owned_record.h) lists with the identity it has now; anything else (a file the user put
//     there, a file commsim wrote and the user edited since, a link) is never replaced: the write
//     is refused with an error naming it;
//   - commsim removes only recorded entries whose identity still matches, and a folder only once
//     it is empty; everything else stays, and the caller is told what stayed;
//   - no symbolic link is followed below the folder: every path is opened component by component
//     relative to the folder's descriptor (beneath.h), so a link at `points/`, `plots/` or
//     `runs/7` is an error, never a way out of the folder;
//   - reserved names at the top of the folder (its marker, record, journal and lock) are commsim's
//     by name: they exist only in folders that carry commsim's marker.
// The folder itself may be reached through a link the user named (e.g. `--out link`): it is
// opened once, and everything after that is relative to what was opened.
#ifndef COMMSIM_BASE_OWNED_FOLDER_H_
#define COMMSIM_BASE_OWNED_FOLDER_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/beneath.h"

namespace commsim {

inline constexpr const char* kMarkerFileName = ".commsim";

// True for the names commsim reserves at the top of its folders (marker, record, journal, lock,
// staging owner file).
bool IsReservedName(const std::string& name);

// What a removal left in place, as paths relative to the folder, with the reason.
struct KeptEntry {
  std::string rel;
  std::string why;  // e.g. "not written by commsim", "changed since commsim wrote it"
};

class OwnedFolder {
 public:
  // Opens the folder `root` (which must exist; errors and the journal name it so). Throws
  // UserError naming it when it cannot be opened or is not a folder.
  explicit OwnedFolder(std::string root);
  // Opens the folder `rel` below `parent` without following links. Throws UserError.
  OwnedFolder(const OwnedFolder& parent, const std::string& rel);

  const std::string& root() const { return root_; }
  int fd() const { return fd_.get(); }
  std::string Shown(const std::string& rel) const;  // "<root>/<rel>"

  // The content of the file `rel`, read without following links; nullopt when it is absent.
  // Throws UserError when it is a link, not a regular file, or larger than `max_bytes`.
  std::optional<std::string> ReadFile(const std::string& rel, size_t max_bytes) const;

  // Writes `content` to `rel` atomically (atomic_file.h), creating (and recording) missing
  // folders on the way. Refuses (UserError naming the entry) when `rel` or a folder on the way is a
  // link, or `rel` holds an entry commsim does not own (rules above). Records the new file.
  void WriteFile(const std::string& rel, std::string_view content);
  // Makes the folder `rel` (and its parents), recording those it creates; returns its descriptor.
  // Throws UserError when a component is a link or not a folder.
  UniqueFd MakeFolder(const std::string& rel);
  // Records `rel`, an entry commsim just put in place by other means (a run folder published
  // inside a sweep folder).
  void Record(const std::string& rel);

  // Throws UserError (as MakeFolder) when `rel` exists and is not a folder reached without links.
  void CheckFolderIfPresent(const std::string& rel) const;
  // True when `rel` is recorded and unchanged. False when absent.
  bool Owns(const std::string& rel) const;
  // True when the folder has an ownership record (commsim has written something in it).
  bool HasRecord() const;
  // The recorded, unchanged entries at or below `rel` ("" = all), sorted.
  std::vector<std::string> OwnedEntries(const std::string& rel = "") const;
  // Throws UserError unless `rel` is absent or owned (the check WriteFile makes).
  void CheckReplaceable(const std::string& rel) const;

  // Removes the recorded entries at or below `rel` ("" = all) that are unchanged, deepest first;
  // a recorded folder is removed once empty (a recorded folder that is itself a commsim folder, a
  // run kept in a sweep, is emptied by its own record first). Returns what stayed.
  std::vector<KeptEntry> RemoveOwned(const std::string& rel = "");
  // RemoveOwned(""), then the reserved files. The folder itself stays (the caller removes it once
  // it is empty). Returns what stayed.
  std::vector<KeptEntry> RemoveAllOwned();

  // Entries at or below `rel` ("" = all) that commsim does not own: not recorded, changed since,
  // links. Reserved names at the top and temporaries of the journal are not listed. At most
  // `limit` entries; `*more` (when given) receives how many more there were.
  std::vector<std::string> ForeignEntries(const std::string& rel = "", size_t limit = 20,
                                          size_t* more = nullptr) const;

 private:
  class Locked;  // the record, locked, and what holds it

  void CheckRel(const std::string& rel) const;

  std::string root_;
  UniqueFd fd_;
};

// "a, b, c and 3 more" for error messages.
std::string ListForMessage(const std::vector<std::string>& items, size_t more);

}  // namespace commsim

#endif  // COMMSIM_BASE_OWNED_FOLDER_H_
