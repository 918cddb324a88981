// Files written atomically: a reader sees either the old file or the complete new one, never a
// partial one, whatever happens to the writer (an I/O error, a full disk, kill -9, a power cut).
//
// Contract of AtomicFileWriter:
//   - bytes go to a fresh temporary `<path>.tmp.<16 hex digits>` beside `path`, created
//     exclusively (O_EXCL: it never opens a file it did not create); the random part comes from the
//     OS (getrandom), not from a simulation stream, so it cannot change any result;
//   - Commit() flushes the temporary to disk (fsync), renames it over `path`, then syncs the
//     folder; any failed write, fsync, close or rename throws UserError naming `path` and the
//     system's reason, and removes the temporary;
//   - a writer destroyed without Commit() removes its temporary;
//   - when `journal_dir` is given (a commsim output folder holding `path`), the temporary is listed
//     in that folder's journal (output_journal.h) *before* it is created, so a later process can
//     remove it if this one dies; nothing else is ever cleaned up.
//
// Fault injection (TEST-ONLY). SetWriteFaultForTesting arms one failure point inside every writer
// whose final path contains `path_contains`: after `after_bytes` bytes, just before the rename, or
// just after the rename (before the folder sync). The fault either fails like an I/O error
// (kFail: the writer throws, exactly as on a full disk) or kills the process on the spot (kCrash:
// SIGKILL, for tests run in a forked child that then inspect what was left behind). It is process
// state set only by tests; nothing in commsim arms it, no environment variable or option reaches
// it, and when disarmed (the default) writers behave exactly as without it.
#ifndef COMMSIM_BASE_ATOMIC_FILE_H_
#define COMMSIM_BASE_ATOMIC_FILE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace commsim {

class AtomicFileWriter {
 public:
  // Creates the temporary. Throws UserError (naming `path`) when it cannot.
  explicit AtomicFileWriter(std::string path, std::string journal_dir = "");
  // The same in the folder `dir_fd` (duplicated), under the plain name `name`: the temporary is
  // created there with O_NOFOLLOW and renamed over `name` there, whatever happens meanwhile to
  // the path that led to the folder. `shown` is the path that errors, faults and the journal use
  // (lexically inside `journal_dir` when that is given).
  AtomicFileWriter(int dir_fd, std::string name, std::string shown, std::string journal_dir = "");
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // Appends bytes. Throws UserError naming `path` on failure (e.g. "No space left on device").
  void Write(const void* data, size_t size);
  void Write(std::string_view bytes) { Write(bytes.data(), bytes.size()); }
  // Makes the file visible under `path`. REQUIRES: not committed yet. `before_rename`, when
  // given, runs once the temporary is complete on disk and closed, just before the rename (an
  // exception from it fails the commit like an I/O error: the temporary is removed).
  void Commit(const std::function<void()>& before_rename = {});

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }
  // The temporary's name in the writer's folder (relative to its descriptor).
  const std::string& temp_name() const { return temp_name_; }

 private:
  void Fail(const std::string& what, int error);  // removes the temporary and throws

  void Open(const std::string& journal_dir);

  int dir_fd_;             // AT_FDCWD, or a descriptor this writer owns
  std::string name_;       // the final name, relative to dir_fd_
  std::string temp_name_;  // the temporary's name, relative to dir_fd_
  std::string path_;       // as shown
  std::string temp_;       // as shown
  int fd_ = -1;
  uint64_t written_bytes_ = 0;
  bool committed_ = false;
};

// Writes `content` to `path` with an AtomicFileWriter.
void WriteFileAtomic(const std::string& path, std::string_view content,
                     const std::string& journal_dir = "");

// 16 random hex digits from the OS, for names that must not collide with anyone else's.
std::string RandomToken();

// Syncs a folder's entries (after a rename into it). Throws UserError naming the folder when the
// sync fails; a folder that cannot be opened for reading is left unsynced.
void SyncDirectory(const std::string& dir);

// ---- Test-only fault injection (see the contract above) ----
enum class WriteFaultStage { kNone, kAfterBytes, kBeforeRename, kAfterRename };
enum class WriteFaultAction { kFail, kCrash };
struct WriteFault {
  WriteFaultStage stage = WriteFaultStage::kNone;
  WriteFaultAction action = WriteFaultAction::kFail;
  std::string path_contains;  // only writers whose final path contains this ("" = every writer)
  uint64_t after_bytes = 0;   // kAfterBytes: the fault fires once this many bytes are written
};
// Arms `fault` for every writer created afterwards, in every thread; a default WriteFault disarms.
void SetWriteFaultForTesting(const WriteFault& fault);

}  // namespace commsim

#endif  // COMMSIM_BASE_ATOMIC_FILE_H_
