// Running a sweep: every point through a point runner, results stored as they finish, resumable.
//
// Sweep folder layout (DIR = --out; a commsim output folder, analysis/output_folder.h):
//   .commsim               marker (kind=sweep): DIR is commsim's; an unmarked, non-empty DIR is
//                          refused
//   .commsim-journal       temporaries being written (base/output_journal.h)
//   .lock                  held by the running `commsim sweep`
//   sweep.fingerprint      the sweep's fingerprint; a different sweep is refused unless restarting
//   sweep.resolved.json    the canonical sweep (base scenario after `set`, axes with their values)
//   axes.csv               name,pointer,unit,scale of every axis (for plots and reports)
//   points/<K>.running     point K is being run, and by whom (scenarios/sweep_running.h); left
//                          behind by a run that was killed, reported and replaced by the next
//   points/<K>.csv         point K's rows: an integrity line (scenarios/sweep_point_file.h), then
//                          point,<axis columns>,<summary.csv columns>; written atomically when the
//                          point finishes. A file that fails the integrity check is run again.
//   runs/<K>/              point K's run folder (only with keep_runs; marked kind=run)
//   sweep.csv              every point's rows in point order: identical whatever `jobs` is and
//                          however often the sweep was interrupted and resumed
//   plots/, report.md      written afterwards by the plot and report code
// --restart removes only what such a folder owns: the files above, points/<K>.csv, runs/<K>/
// holding a run marker, points/<K>.running and plots/*.{dat,gp,png,svg}; anything else in DIR
// stays.
// A point runner gets a scenario document and returns that run's summary.csv text; it knows nothing
// of the sweep, so points can run in other processes or on other machines (`commsim sweep-point`)
// and be gathered by re-running the sweep over the same folder.
#ifndef COMMSIM_SCENARIOS_SWEEP_RUNNER_H_
#define COMMSIM_SCENARIOS_SWEEP_RUNNER_H_

#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "analysis/progress.h"
#include "scenarios/sweep.h"

namespace commsim {

// Runs one scenario document. When `run_dir` is not empty, also writes the run folder there.
// Returns the summary CSV (header + one row per algorithm entry). Throws UserError on bad input.
using PointRunner =
    std::function<std::string(const nlohmann::json& scenario_doc, const std::string& run_dir)>;

// Runs `run_point(K)` once for every K in `pending`, in any order and on any threads or processes,
// and returns when all have ended. When some throw, it starts no new point after the first
// failure, lets running ones finish, and throws the failure of the lowest-numbered point.
using PointScheduler = std::function<void(const std::vector<size_t>& pending,
                                          const std::function<void(size_t)>& run_point)>;

// The default PointScheduler: `jobs` threads (<= 0: one per hardware thread) take the points in
// order (scenarios/sweep_threads.cc).
void RunPointsOnThreads(const std::vector<size_t>& pending, int jobs,
                        const std::function<void(size_t)>& run_point);

struct SweepOptions {
  int jobs = 1;                  // points run in parallel; <= 0 means one per hardware thread
  bool keep_runs = false;        // write runs/<K>/ for every point
  bool restart = false;          // discard results of a different (or the same) earlier sweep
  Progress* progress = nullptr;  // may be null
  std::FILE* notes = nullptr;    // where notes go (a stored point that is run again); may be null
  // How points are run; empty: RunPointsOnThreads with `jobs`. `mpirun commsim sweep` spreads
  // them over the ranks of the job (app/mpi_sweep.h).
  PointScheduler schedule = nullptr;
  std::string who = "";  // for the running entries of the points run here; empty: ThisProcess()
};

struct SweepStats {
  size_t points = 0;         // in the sweep
  size_t skipped = 0;        // finished by an earlier run
  size_t ran = 0;            // run now
  size_t rerun_invalid = 0;  // of those, points whose stored file failed its integrity check
};

// Creates or reopens DIR for `sweep`: refuses (UserError) a path that is not a sweep folder (see
// above), and a folder holding another sweep's results unless `restart`, which deletes them.
// Removes the temporaries of dead writers listed in the journal, checks that points/ is writable,
// and writes sweep.fingerprint, sweep.resolved.json and axes.csv.
void PrepareSweepFolder(const Sweep& sweep, const std::string& dir, bool restart);

std::string PointFile(const std::string& dir, size_t point);

// Runs point `point` and stores points/<point>.csv (and runs/<point>/ when keep_runs); while it
// runs, points/<point>.running names `who` (empty: this process; scenarios/sweep_running.h).
// REQUIRES: PrepareSweepFolder(sweep, dir, ...) was called.
void RunSweepPoint(const Sweep& sweep, size_t point, const std::string& dir, bool keep_runs,
                   const PointRunner& runner, const std::string& who = "");

// Point `point`'s stored table when points/<point>.csv passes every check (integrity line, and
// the axis values of every row); else nullopt and `*problem` ("missing", or what is wrong).
std::optional<CsvTable> ReadPointFile(const Sweep& sweep, const std::string& dir, size_t point,
                                      std::string* problem);

// sweep.csv text from the stored points. Throws UserError naming the first missing or untrusted
// point file.
std::string AssembleSweepCsv(const Sweep& sweep, const std::string& dir);

// Prepares DIR (holding a lock on DIR/.lock against a second sweep writing it), runs the points
// without a stored result through `schedule` (default: `jobs` threads), then writes DIR/sweep.csv.
// When a point fails, points already running finish and are stored, no new ones start, and the
// first failure (by point index) is thrown as UserError naming the point.
SweepStats RunSweep(const Sweep& sweep, const std::string& dir, const SweepOptions& options,
                    const PointRunner& runner);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_RUNNER_H_
