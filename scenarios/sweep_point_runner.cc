// ScenarioPointRunner and ValidateSweepPoints (sweep_point.h): the glue to the scenario runner,
// kept apart from the pure summary code so that tests of the latter need no simulator.
#include <fmt/format.h>

#include "scenarios/runner.h"
#include "scenarios/scenario.h"
#include "scenarios/sweep_point.h"
#include "sim/error.h"

namespace commsim {

void ValidateSweepPoints(const Sweep& sweep) {
  for (size_t k = 0; k < sweep.size(); ++k) {
    try {
      ParseScenario(sweep.PointScenario(k), "scenario", sweep.base_dir);
    } catch (const UserError& e) {
      throw UserError(
          fmt::format("{}: point {} ({}): {}", sweep.file, k, sweep.DescribePoint(k), e.what()));
    }
  }
}

PointRunner ScenarioPointRunner(const Sweep& sweep) {
  return [base_dir = sweep.base_dir, target = sweep.target_loss](const nlohmann::json& doc,
                                                                 const std::string& run_dir) {
    const Scenario scenario = ParseScenario(doc, "scenario", base_dir);
    RunOptions options;
    options.jobs = 1;
    const RunResult result = RunScenario(scenario, options);
    if (!run_dir.empty()) WriteRunFolder(scenario, result, run_dir);
    return PointSummaryCsv(result, target);
  };
}

}  // namespace commsim
