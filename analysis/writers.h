// Output files of a run. Files are written with WriteFileAtomic (base/atomic_file.h, included here
// for the callers that write them); a run folder is published whole with StagedFolder
// (analysis/output_folder.h).
//
// Columns: the Visit lists of records/records.h, in that order, then the union of the `extra`
// keys in sorted order (docs/outputs.md describes each column). Optional values are empty cells
// and JSON null. Numbers use the shortest text that round-trips, so the same run gives
// byte-identical files.
#ifndef COMMSIM_ANALYSIS_WRITERS_H_
#define COMMSIM_ANALYSIS_WRITERS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/atomic_file.h"
#include "records/records.h"

namespace commsim {

// metrics.csv: one row per recorded iteration of each entry, entries in order.
std::string MetricsCsv(const RunResult& result);
// summary.csv: one row per entry. The run's target (target_metric, target_value) is repeated on
// every row, empty when no target applies. Plots, reports and sweeps read this, not the JSON.
std::string SummaryCsv(const RunResult& result);
// The summary columns the run report shows in its quality table when present, with their titles.
std::vector<std::pair<std::string, std::string>> SummaryReportColumns();
// {"commsim_version", "problem": {dim, workers, train_samples, test_samples,
//  train_samples_per_worker {min, max}, batch_per_worker {min, max}}, "target": {metric, value,
//  rule} or {omitted: reason}, "algorithms": [ {summary fields...}, ... ]}; optional fields are
// null. Deterministic: no wall-clock time.
nlohmann::json SummaryJson(const RunResult& result);
// run.json: {"commsim_version", "wall_time_s", "entries": [{name, wall_time_s}]}: the only output
// that differs between two runs of the same scenario (determinism checks exclude it).
nlohmann::json RunJson(const RunResult& result);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_WRITERS_H_
