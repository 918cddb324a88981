// Output files of a run, written atomically (temp name, then rename).
//
// metrics.csv columns (fixed order, then the union of `extra` keys in sorted order):
//   algorithm,iteration,sim_time_s,iter_time_s,compute_time_s,comm_time_s,loss,dist_to_opt_sq,
//   test_accuracy,consensus_dist,density,bits_up,bits_down,cum_bits,status
// Optional values are empty cells. Numbers use the shortest text that round-trips, so the same run
// gives byte-identical files.
#ifndef COMMSIM_ANALYSIS_WRITERS_H_
#define COMMSIM_ANALYSIS_WRITERS_H_

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/records.h"

namespace commsim {

std::string MetricsCsv(const RunResult& result);
// {"algorithms": [ {summary fields...}, ... ]}; optional fields are null.
nlohmann::json SummaryJson(const RunResult& result);

// Writes `content` to `path` through `path.tmp.<pid>` + rename. Throws UserError on I/O failure.
void WriteFileAtomic(const std::string& path, const std::string& content);

// Publishes a finished output folder: `staging` (a sibling temp folder holding every file) replaces
// `dir` in one rename, so a reader never sees a half-written run. Throws UserError on failure.
void PublishDirectory(const std::string& staging, const std::string& dir);
// A fresh staging folder next to `dir` (created, empty).
std::string MakeStagingDirectory(const std::string& dir);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_WRITERS_H_
