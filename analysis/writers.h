// Output files of a run. Files are written with WriteFileAtomic (sim/atomic_file.h, included here
// for the callers that write them); a run folder is published whole with StagedFolder
// (analysis/output_folder.h).
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
#include <vector>

#include "analysis/records.h"
#include "sim/atomic_file.h"

namespace commsim {

std::string MetricsCsv(const RunResult& result);
// One row per algorithm: name,algorithm,family,status,iterations,final_loss,final_dist_to_opt_sq,
// final_test_accuracy,final_consensus_dist,final_density,total_bits,bits_up,bits_down,
// mean_iter_time_s,mean_compute_time_s,mean_comm_time_s,sim_time_s,bits_fraction_of_sgd, then the
// union of summary `extra` keys, sorted. (Plots, reports and sweeps read this, not the JSON.)
std::string SummaryCsv(const RunResult& result);
// The header line of SummaryCsv without extras, and one row's cells, for sweep tables.
std::vector<std::string> SummaryColumns(const RunResult& result);
std::vector<std::string> SummaryCells(const RunSummary& s, const std::vector<std::string>& columns);
// {"algorithms": [ {summary fields...}, ... ]}; optional fields are null.
nlohmann::json SummaryJson(const RunResult& result);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_WRITERS_H_
