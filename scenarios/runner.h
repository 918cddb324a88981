// Running scenarios: load + validate a scenario file, run every algorithm entry, write the run
// folder. This is the "point runner" a sweep calls: a scenario document in, a result folder out,
// independent of the process that schedules it.
#ifndef COMMSIM_SCENARIOS_RUNNER_H_
#define COMMSIM_SCENARIOS_RUNNER_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/records.h"
#include "scenarios/scenario.h"

namespace commsim {

// Applies one `--set /json/pointer=value` assignment: the value is parsed as JSON when it parses,
// else taken as a string ("--set /network/bandwidth=200Mbps"). Throws UserError on a bad pointer.
void ApplySet(nlohmann::json& doc, const std::string& assignment);

// Reads, overrides and validates a scenario file; throws UserError listing every problem.
Scenario LoadScenario(const std::string& file, const std::vector<std::string>& sets = {});

// Builds everything a run needs (data, objective, topologies, algorithms) without running it, so
// `commsim validate` catches missing data files and topology/algorithm mismatches.
void CheckScenario(const Scenario& scenario);

struct RunOptions {
  int jobs = 1;  // algorithm entries simulated in parallel threads; results do not depend on it
  // Called after each entry finishes (entry index, its summary), from the calling thread's
  // perspective serialised; may be empty.
  std::function<void(size_t, const RunSummary&)> on_entry_done;
};

RunResult RunScenario(const Scenario& scenario, const RunOptions& options);

// Writes metrics.csv, summary.csv, summary.json and scenario.resolved.json into `out_dir` and
// publishes it whole (analysis/output_folder.h: `out_dir` must be absent, an empty folder or a run
// folder, which is replaced). Nothing is published when any write fails. Messages start with
// `origin` (default: `out_dir`). Throws UserError.
void WriteRunFolder(const Scenario& scenario, const RunResult& result, const std::string& out_dir,
                    const std::string& origin = "");

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_RUNNER_H_
