// Running scenarios: load + validate a scenario file, run every algorithm entry, write the run
// folder. This is the "point runner" a sweep calls: a scenario document in, a result folder out,
// independent of the process that schedules it.
#ifndef COMMSIM_SCENARIOS_RUNNER_H_
#define COMMSIM_SCENARIOS_RUNNER_H_

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "records/records.h"
#include "scenarios/scenario.h"

namespace commsim {

class TrajectoryStore;

// Applies one `--set /json/pointer=value` assignment: the value is parsed as JSON when it parses,
// else taken as a string ("--set /network/topology/worker_bandwidth=200Mbps"). Throws UserError
// on a bad pointer.
void ApplySet(nlohmann::json& doc, const std::string& assignment);

// Reads, overrides and validates a scenario file; throws UserError listing every problem.
// Relative data paths in the file are relative to the file's folder; a `--set /data/path=...`
// value is relative to the working directory.
Scenario LoadScenario(const std::string& file, const std::vector<std::string>& sets = {});
// The document LoadScenario parses: the file with the `sets` applied (a set data path made
// absolute). Throws UserError.
nlohmann::json LoadScenarioDocument(const std::string& file, const std::vector<std::string>& sets);

// Builds everything a run needs (data, objective, topologies, algorithms) and runs every
// algorithm's Check() without running it, so `commsim validate` (and `run`, before anything runs)
// catches missing data files, topology/algorithm mismatches and a topology whose worker count
// differs from the scenario's `workers`.
void CheckScenario(const Scenario& scenario);

// The default number of parallel jobs of `run` and `sweep`: one per core.
int DefaultJobs();

struct RunOptions {
  int jobs = 1;     // entries simulated in parallel threads (<= 0: DefaultJobs()); results do not
                    // depend on it
  int threads = 1;  // threads inside each entry (RunSetup::threads; >= 1); results do not depend
                    // on it. With jobs > 1 up to jobs x threads threads run at once.
  // Called after each entry finishes (entry index, its summary), serialised; may be empty.
  std::function<void(size_t, const RunSummary&)> on_entry_done;
  // Called after every iteration of an entry (entry index, iterations completed), from the thread
  // running that entry (not serialised); may be empty.
  std::function<void(size_t, int64_t)> on_iteration;
  // Called every `events_every` simulated events of an entry (entry index, events run, simulated
  // seconds), from the thread running it; may be empty (RunSetup::on_events).
  std::function<void(size_t, int64_t, double)> on_events;
  int64_t events_every = int64_t{1} << 16;
  // Builds an entry's algorithm; empty = the registry. Tests substitute fakes.
  std::function<std::unique_ptr<Algorithm>(const ComponentSpec&)> make_algorithm;
  // Trajectories to re-time and to record, and the objective, shared by every run given this
  // store (scenarios/trajectory_reuse.h); nullptr: every entry runs in full on its own objective.
  // The caller makes sure those runs differ in timing keys only.
  TrajectoryStore* trajectories = nullptr;
};

// Runs every entry (in parallel when options.jobs > 1). An entry that throws gets status "error"
// with the message and the others go on; a diverged entry stops at its divergence. Then sets each
// entry's baseline comparison (sgd for parameter-server entries, dpsgd for decentralized ones)
// and the time to target (analysis/targets.h, from the scenario's target keys).
// Throws UserError only for bad input found before anything runs (CheckScenario).
RunResult RunScenario(const Scenario& scenario, const RunOptions& options);

// True when an entry ended with status "error" (`commsim run` then exits with code 3).
bool AnyEntryFailed(const RunResult& result);

// Writes metrics.csv, summary.csv, summary.json, scenario.resolved.json and run.json (the only
// file with wall-clock times, so the others are byte-identical across runs) into `out_dir` and
// publishes it whole (analysis/output_folder.h: `out_dir` must be absent, an empty folder or a run
// folder, which is replaced). Nothing is published when any write fails. Messages start with
// `origin` (default: `out_dir`). A non-empty `trace` (scenarios/trace_file.h) is written as
// trace.txt. Throws UserError.
void WriteRunFolder(const Scenario& scenario, const RunResult& result, const std::string& out_dir,
                    const std::string& origin = "", const std::string& trace = "");

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_RUNNER_H_
