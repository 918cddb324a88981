// The journal of a commsim output folder: which temporary files commsim processes created in it,
// so that the ones left by a process that died (kill -9, power cut) can be removed later without
// ever removing anything else.
//
// `<dir>/.commsim-journal` holds one line per temporary, appended *before* the temporary exists:
//   <host> <pid> <path relative to dir>
// Appends and clean-ups hold an exclusive flock on the journal, so processes sharing the folder
// (a sweep and `sweep-point`s) do not lose each other's lines.
//
// CleanJournal removes a listed temporary only when all of these hold: its process ran on this
// host and is gone; the path is relative, inside the folder (no `..`), names a file whose name
// ends in `.tmp.<16 hex digits>`, and is not a folder. Lines of processes that may be alive (this
// host's running processes, every other host's) are kept; the other lines are dropped once acted
// on (or when their file is gone: renamed into place). An entry that merely *looks* like a
// temporary but is not listed is never touched.
#ifndef COMMSIM_BASE_OUTPUT_JOURNAL_H_
#define COMMSIM_BASE_OUTPUT_JOURNAL_H_

#include <cstddef>
#include <string>

namespace commsim {

inline constexpr const char* kJournalFileName = ".commsim-journal";

// Lists `path` (a file inside `dir`) as this process's temporary. Throws UserError naming the
// journal when it cannot be written.
void JournalTemporary(const std::string& dir, const std::string& path);

// Removes the temporaries of dead processes listed in `dir`'s journal (see above) and rewrites the
// journal with the lines still needed. Returns the number of files removed. A missing journal is
// an empty one.
size_t CleanJournal(const std::string& dir);

// True when `name` ends in ".tmp." followed by 16 lower-case hex digits.
bool IsTemporaryName(const std::string& name);

// This host's name (for journal lines and owner files).
std::string HostName();
// False only when process `pid` was started on `host` (this host) and no longer exists.
bool OwnerMayBeAlive(const std::string& host, long pid);

}  // namespace commsim

#endif  // COMMSIM_BASE_OUTPUT_JOURNAL_H_
