#include "algorithms/collective/collective_replay.h"

#include "algorithms/collective/collective_driver.h"
#include "algorithms/replay_objective.h"
#include "sim/check.h"

namespace commsim {

void ReplayCollectiveRule::Input(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>&, double,
                                 Eigen::Ref<Eigen::VectorXd> out) {
  std::vector<bool>& zeroed = zeroed_[static_cast<size_t>(phase)];
  if (zeroed.empty()) zeroed.assign(static_cast<size_t>(workers_), false);
  if (zeroed[static_cast<size_t>(w)]) return;
  out.setZero();
  zeroed[static_cast<size_t>(w)] = true;
}

void ReplayCollective(const RunSetup& setup, const CollectiveOptions& options,
                      const CollectiveRule& rule, std::vector<IterationRecord>* records,
                      RunSummary* summary) {
  COMMSIM_CHECK(setup.replay != nullptr && setup.objective != nullptr, "nothing to replay");
  const ReplayObjective objective(*setup.objective);
  ReplayCollectiveRule replay_rule(*setup.replay, rule.Phases(objective.dim(), setup.layers));
  RunCollective(ReplaySetup(setup, objective), options, replay_rule, records, summary);
}

}  // namespace commsim
