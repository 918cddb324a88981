// The sweep's point runner on top of the scenario runner, and the per-point summary it stores.
//
// A point's summary is its run's summary.csv (SummaryCsv): time to target included, by the rule of
// analysis/targets.h at that point, or towards the sweep's "target_loss" when it gives one.
#ifndef COMMSIM_SCENARIOS_SWEEP_POINT_H_
#define COMMSIM_SCENARIOS_SWEEP_POINT_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/progress.h"
#include "records/records.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_runner.h"

namespace commsim {

class TrajectoryStore;

// The point's summary CSV (see above).
std::string PointSummaryCsv(const RunResult& result, std::optional<double> target_loss);

// Parses every point's scenario before anything runs, so a bad value fails fast, and checks that
// every axis changes what some entry runs (sweep_axis_check.h). Throws UserError naming the point
// or the axis; returns the notes on axes that leave some entries unchanged.
std::vector<std::string> ValidateSweepPoints(const Sweep& sweep);

// Runs a point's scenario with ParseScenario + RunScenario (jobs = 1) and, when asked, writes its
// run folder with WriteRunFolder. With `progress`, reports the point's own progress (iterations
// done over all its entries) through Progress::SetPartial from the thread running it.
// With `trajectories` (nullptr: none), entries re-time the trajectories recorded at earlier
// points (scenarios/trajectory_reuse.h). REQUIRES then: SweepReuseBlocker(sweep) is "".
// Each entry runs on `threads` threads (RunOptions::threads).
PointRunner ScenarioPointRunner(const Sweep& sweep, Progress* progress = nullptr,
                                TrajectoryStore* trajectories = nullptr, int threads = 1);

// "" when every axis of the sweep is a timing key (scenarios/trajectory_reuse.h), so its points
// differ in timing only and may share trajectories; else the first axis that is not, in words.
std::string SweepReuseBlocker(const Sweep& sweep);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_POINT_H_
