#include "algorithms/collective/collective_replay.h"

#include <utility>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/replay_objective.h"
#include "sim/check.h"

namespace commsim {

std::vector<CollectivePhase> ReplayPhases(CollectiveRule& rule, const RunSetup& setup) {
  COMMSIM_CHECK(setup.objective != nullptr, "no objective");
  const ReplayObjective objective(*setup.objective);
  const Eigen::VectorXd x0 = Eigen::VectorXd::Zero(objective.dim());
  rule.Init(objective.num_workers(), x0, objective, setup.layers, setup.seed);
  return rule.Phases();
}

void ReplayCollective(const RunSetup& setup, const CollectiveOptions& options,
                      std::vector<CollectivePhase> phases, std::vector<IterationRecord>* records,
                      RunSummary* summary) {
  COMMSIM_CHECK(setup.replay != nullptr && setup.objective != nullptr, "nothing to replay");
  const ReplayObjective objective(*setup.objective);
  RunSetup replay = setup;
  replay.objective = &objective;
  replay.record = nullptr;
  ReplayCollectiveRule rule(*setup.replay, std::move(phases));
  RunCollective(replay, options, rule, records, summary);
}

}  // namespace commsim
