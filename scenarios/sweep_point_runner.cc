// ScenarioPointRunner and ValidateSweepPoints (sweep_point.h): the glue to the scenario runner,
// kept apart from the pure summary code so that tests of the latter need no simulator.
#include <fmt/format.h>

#include <algorithm>

#include "base/error.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"
#include "scenarios/sweep_axis_check.h"
#include "scenarios/sweep_point.h"
#include "scenarios/trajectory_reuse.h"

namespace commsim {

std::vector<std::string> ValidateSweepPoints(const Sweep& sweep) {
  for (size_t k = 0; k < sweep.size(); ++k) {
    try {
      ParseScenario(sweep.PointScenario(k), "scenario", sweep.base_dir);
    } catch (const UserError& e) {
      throw UserError(
          fmt::format("{}: point {} ({}): {}", sweep.file, k, sweep.DescribePoint(k), e.what()));
    }
  }
  return SweepAxisNotes(sweep);
}

std::string SweepReuseBlocker(const Sweep& sweep) {
  for (const SweepAxis& axis : sweep.axes) {
    if (!IsTimingPointer(axis.pointer)) {
      return fmt::format("axis {} ({}) is not a timing key", axis.name, axis.pointer);
    }
  }
  return "";
}

PointRunner ScenarioPointRunner(const Sweep& sweep, Progress* progress,
                                TrajectoryStore* trajectories, int threads) {
  return [base_dir = sweep.base_dir, target = sweep.target_loss, progress, trajectories, threads](
             const nlohmann::json& doc, const std::string& run_dir) {
    const Scenario scenario = ParseScenario(doc, "scenario", base_dir);
    RunOptions options;
    options.jobs = 1;
    options.threads = threads;
    options.trajectories = trajectories;
    if (progress != nullptr && scenario.iterations > 0) {
      // One entry at a time (jobs = 1): entries before `entry` are done.
      const double total = static_cast<double>(scenario.iterations) *
                           static_cast<double>(scenario.algorithms.size());
      const int64_t every = std::max<int64_t>(1, scenario.iterations / 200);
      const int64_t iterations = scenario.iterations;
      options.on_iteration = [progress, total, every, iterations](size_t entry, int64_t done) {
        if (done % every != 0) return;
        progress->SetPartial((static_cast<double>(entry) * static_cast<double>(iterations) +
                              static_cast<double>(done)) /
                             total);
      };
      options.on_events = [progress, &scenario](size_t entry, int64_t events, double sim_s) {
        progress->SetDetail(EventsDetail(scenario.algorithms[entry].label, events, sim_s));
      };
      options.on_entry_done = [progress, &scenario](size_t entry, const RunSummary&) {
        progress->SetPartial(static_cast<double>(entry + 1) /
                             static_cast<double>(scenario.algorithms.size()));
      };
    }
    const RunResult result = RunScenario(scenario, options);
    if (!run_dir.empty()) WriteRunFolder(scenario, result, run_dir);
    return PointSummaryCsv(result, target);
  };
}

}  // namespace commsim
