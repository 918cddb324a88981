// Time to target: when (simulated seconds) and after how many wire bits each entry of a run first
// reaches a common target, so entries are compared on the quality they reach, not per iteration.
//
// The target (ChooseTarget):
//   - the scenario's target_accuracy (reached when test accuracy >= it) or target_loss (reached
//     when loss <= it), when given: always applied;
//   - otherwise the largest final loss among the entries that finished "ok" (not diverged, no
//     error), so every one of them reaches it: the slowest entry reaches it at its last record.
//     Omitted (no target, with the reason) when fewer than two entries finished "ok", or when they
//     recorded fewer than two iterations after iteration 0 (the time to target would only repeat
//     the run time).
// An entry reaches the target at its first recorded iteration (iteration 0 included) whose metric
// is finite and meets it; the resolution is the scenario's metrics_every. Entries that never
// reach it have no time (empty cells).
#ifndef COMMSIM_ANALYSIS_TARGETS_H_
#define COMMSIM_ANALYSIS_TARGETS_H_

#include <optional>
#include <string>
#include <vector>

#include "records/records.h"

namespace commsim {

struct TargetOptions {
  std::optional<double> target_loss;
  std::optional<double> target_accuracy;  // wins over target_loss when both are set
};

// The first record reaching `target`; nullptr when none does.
const IterationRecord* FirstReaching(const std::vector<IterationRecord>& records,
                                     const RunTarget& target);

// The run's target by the rule above; nullopt with `*why_not` set when no target applies.
std::optional<RunTarget> ChooseTarget(const RunResult& result, const TargetOptions& options,
                                      std::string* why_not);

// Chooses the target and fills result.target / target_omitted and every summary's
// time_to_target_s and bits_to_target (cleared when no target applies).
void ApplyTargets(RunResult& result, const TargetOptions& options);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_TARGETS_H_
