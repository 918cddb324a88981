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
#include <optional>
#include <string>
#include <vector>

#include "analysis/records.h"
#include "sim/atomic_file.h"

namespace commsim {

std::string MetricsCsv(const RunResult& result);
// One row per algorithm: name,algorithm,family,status,message,iterations,final_loss,
// final_dist_to_opt_sq,final_test_accuracy,final_consensus_dist,final_density,total_bits,bits_up,
// bits_down,mean_iter_time_s,mean_compute_time_s,mean_comm_time_s,sim_time_s,baseline,
// bits_fraction_of_baseline,target_metric,target_value,time_to_target_s,bits_to_target, then the
// union of summary `extra` keys, sorted. (Plots, reports and sweeps read this, not the JSON.)
//   message                    why the status is not "ok" (empty when ok)
//   baseline                   label of the family's full-precision entry: the `sgd` entry for
//                              parameter-server entries, the `dpsgd` entry for decentralized ones
//   bits_fraction_of_baseline  bits per iteration / the baseline's bits per iteration
//   target_metric, target_value  the run's time-to-target goal (analysis/targets.h), the same on
//                              every row; empty when no target applies
//   time_to_target_s, bits_to_target  simulated time and cumulative wire bits at the entry's
//                              first recorded iteration reaching it; empty when never reached
std::string SummaryCsv(const RunResult& result);
// The header line of SummaryCsv, and one row's cells, for sweep tables.
std::vector<std::string> SummaryColumns(const RunResult& result);
std::vector<std::string> SummaryCells(const RunSummary& s, const std::vector<std::string>& columns,
                                      const std::optional<RunTarget>& target);
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
