// Output folders commsim owns, and how a run folder is published.
//
// commsim only ever deletes or replaces what it created. Every output folder it creates (a run
// folder, a sweep folder, each kept run inside a sweep) carries a marker file `.commsim`:
//   commsim output folder
//   kind=run            (or kind=sweep)
//   format=1
// Its content is fixed, so it never breaks byte-identical comparisons of outputs.
//
// An output path is accepted when it is
//   - absent (it is created, with its parents), or
//   - an empty folder, unless it is `/`, the current folder, $HOME or an ancestor of either, or
//   - a folder holding a marker of the same kind: a sweep folder is reused; a run folder is
//     replaced, but only when everything in it is commsim's own (base/owned_folder.h: recorded in
//     its `.commsim-owned` and unchanged since). A run folder holding anything else (a file the
//     user added, an output the user edited, a link) is refused, naming those entries, before any
//     work starts and again just before publishing.
// Anything else is refused before any work starts: a file, a symbolic link (for a run folder,
// which is replaced), a folder without a marker, a folder of the other kind.
//
// Publishing a run folder: everything is written into a staging folder beside the target,
// `<parent>/.<name>.commsim-staging.<16 hex digits>`, created exclusively and holding the marker
// and an owner file (`.commsim-staging`: host and pid). The staging folder then replaces the
// target in one rename (an exchange when the target exists), so a reader never sees a half-written
// run; of the previous content, only what commsim owns is removed afterwards (anything that
// appeared meanwhile stays, and the error says where). A staging folder left by a process that
// died is emptied of what commsim wrote in it by the next publication to the same target, only
// when its owner file names a process of this host that is gone. Files are written into the
// staging folder with OwnedFolder(path()).WriteFile, so that they are recorded.
#ifndef COMMSIM_ANALYSIS_OUTPUT_FOLDER_H_
#define COMMSIM_ANALYSIS_OUTPUT_FOLDER_H_

#include <string>
#include <string_view>

#include "base/owned_folder.h"

namespace commsim {

// kFigures: a folder made by `plot --out` or `report --out` for another folder's figures;
// kReproduction: `commsim reproduce`'s folder (a run folder per reproduction, reproduction.md),
// written in place like a sweep folder.
enum class OutputKind { kRun, kSweep, kReproduction, kFigures };
// "run", "sweep", "reproduction", "figures"
std::string_view OutputKindName(OutputKind kind);

enum class OutputState { kAbsent, kEmptyFolder, kMarked };

// Checks that `path` may receive an output folder of `kind` (rules above). `origin` starts every
// message (e.g. "--out results/x"). Throws UserError: "<origin>: exists and is not a commsim
// output folder (no .commsim marker); choose another path or remove it yourself".
OutputState CheckOutputTarget(const std::string& path, OutputKind kind, const std::string& origin);

// The kind recorded in `dir`'s marker, if `dir` is a folder with a valid marker.
bool ReadMarker(const std::string& dir, OutputKind* kind);
// Writes `dir`/.commsim for `kind`. Throws UserError naming the file on failure.
void WriteMarker(const std::string& dir, OutputKind kind);

// For a folder written in place (a sweep): checks `path`, creates it when absent, and marks it when
// it has no marker yet. Throws UserError as CheckOutputTarget, or when it cannot be created.
void EnsureOutputFolder(const std::string& path, OutputKind kind, const std::string& origin);

// Throws UserError unless `dir` carries commsim's marker (of any kind): `plot` and `report` write
// only into folders commsim made. `command` ("plot", "report") names the command in the message.
void CheckMarkedFolder(const std::string& dir, std::string_view command);

// Throws UserError unless `dir` (an existing folder) accepts new files: creates and removes a
// probe file there.
void CheckFolderWritable(const std::string& dir, const std::string& origin);

// A folder written in full, then published at `target` (see above).
class StagedFolder {
 public:
  // Checks `target` (CheckOutputTarget), creates its parent, removes dead processes' staging
  // folders of the same target, and creates the staging folder with its marker. Throws UserError
  // naming `origin` when any of that fails.
  StagedFolder(std::string target, OutputKind kind, std::string origin);
  // Removes the staging folder unless it was published.
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  const std::string& path() const { return staging_; }
  // Checks `target` again (something may have appeared there meanwhile) and makes the staging
  // folder the target. Throws UserError naming the target; the target is then unchanged.
  void Publish();

 private:
  std::string target_;
  OutputKind kind_;
  std::string origin_;
  std::string staging_;
  bool published_ = false;
};

// For commands that compute long before they write: everything StagedFolder's constructor checks
// (the target's state and that its parent accepts a new folder), and that a marked target can be
// replaced, without writing anything that stays. Throws UserError naming `origin`.
void CheckOutputWritable(const std::string& target, OutputKind kind, const std::string& origin);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_OUTPUT_FOLDER_H_
