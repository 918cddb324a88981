// commsim.run, commsim.sweep and commsim.validate (docs/python.md): a scenario or sweep from a file
// or a Python dict, run off the Python thread (background.h) with progress and Ctrl-C, into the
// folder the command line would write.
#ifndef COMMSIM_PYTHON_RUNS_H_
#define COMMSIM_PYTHON_RUNS_H_

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace commsim::python {

// A scenario or sweep: a file, or (file empty) a document given as JSON text, whose relative
// paths resolve against the working directory and whose messages name it "<dict>".
struct Source {
  std::string file;
  std::string text;
};
inline constexpr char kDictOrigin[] = "<dict>";

// `commsim run`: runs the scenario with `sets` ("/pointer=value") applied into `out` (empty:
// results/<name>), publishing the folder whole; returns it. `progress` (None or a callable)
// is called with (iterations done, iterations in all) from the calling thread. Ctrl-C stops the
// entries and raises KeyboardInterrupt with nothing written. Throws UserError on bad input.
std::string RunScenarioTo(const Source& source, const std::vector<std::string>& sets,
                          const std::string& out, int jobs, int threads,
                          const pybind11::object& progress);

// `commsim sweep`: runs the points not stored yet into `out` (empty: results/<name>) and writes
// sweep.csv; returns the folder. `progress` gets (points done, points in all). Ctrl-C starts no
// new point, lets running ones finish and be stored (a later call resumes), and raises
// KeyboardInterrupt.
std::string RunSweepTo(const Source& source, const std::string& out, int jobs, int threads,
                       bool keep_runs, bool restart, const pybind11::object& progress);

// `commsim validate`: checks a scenario (with `sets`) or a sweep; returns its notes. Throws
// UserError listing the problems.
std::vector<std::string> ValidateSource(const Source& source, const std::vector<std::string>& sets);

// True while RunScenarioTo or RunSweepTo runs (compressors may not be registered then).
bool RunInProgress();

}  // namespace commsim::python

#endif  // COMMSIM_PYTHON_RUNS_H_
