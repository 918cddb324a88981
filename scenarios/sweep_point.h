// The sweep's point runner on top of the scenario runner, and the per-point summary it stores.
//
// A point's summary is summary.csv (SummaryColumns/SummaryCells) plus two columns:
//   target_loss       the sweep's "target_loss", or when absent the largest final loss among the
//                     entries that finished "ok" at this point (the loss every entry reached)
//   time_to_target_s  simulated time at the first recorded iteration whose loss <= target_loss
//                     (empty when never reached; resolution is the scenario's metrics_every)
#ifndef COMMSIM_SCENARIOS_SWEEP_POINT_H_
#define COMMSIM_SCENARIOS_SWEEP_POINT_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/records.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_runner.h"

namespace commsim {

// Simulated time of the first record with loss <= target_loss; nullopt when none.
std::optional<double> TimeToTarget(const std::vector<IterationRecord>& records, double target_loss);

// The point's summary CSV (see above).
std::string PointSummaryCsv(const RunResult& result, std::optional<double> target_loss);

// Parses every point's scenario before anything runs, so a bad value fails fast. Throws UserError
// naming the point.
void ValidateSweepPoints(const Sweep& sweep);

// Runs a point's scenario with ParseScenario + RunScenario (jobs = 1) and, when asked, writes its
// run folder with WriteRunFolder.
PointRunner ScenarioPointRunner(const Sweep& sweep);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_POINT_H_
