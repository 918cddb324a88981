#include "algorithms/collective/collective_replay.h"

#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/framework_plan.h"
#include "algorithms/replay_objective.h"
#include "base/check.h"

namespace commsim {

void ReplayCollective(const RunSetup& setup, const CollectiveOptions& options, CollectiveRule& rule,
                      std::vector<IterationRecord>* records, RunSummary* summary) {
  COMMSIM_CHECK(setup.replay != nullptr && setup.objective != nullptr, "nothing to replay");
  const ReplayObjective objective(*setup.objective);
  UseFrameworkParts(setup, objective.dim(), options.ValueBytes(), rule);
  ReplayCollectiveRule replay_rule(*setup.replay, rule.Phases(objective.dim(), setup.layers),
                                   rule.LocalSteps());
  RunCollective(ReplaySetup(setup, objective), options, replay_rule, records, summary);
}

}  // namespace commsim
