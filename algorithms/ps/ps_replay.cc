#include "algorithms/ps/ps_replay.h"

#include "algorithms/ps/ps_driver.h"
#include "algorithms/replay_objective.h"
#include "base/check.h"

namespace commsim {

void ReplayPsRule::Init(int workers, const ConstVec&, const Objective&) {
  workers_ = workers;
  worker_round_.assign(static_cast<size_t>(workers), 0);
  server_round_ = 0;
}

Message ReplayPsRule::WorkerEncode(int w, GradVec, double, Rng&) {
  return trajectory_.MessageAt(++worker_round_[static_cast<size_t>(w)], w);
}

Message ReplayPsRule::ServerRound(double, Rng&) {
  return trajectory_.MessageAt(++server_round_, PsDownlinkSlot(workers_));
}

void ReplayParameterServer(const RunSetup& setup, std::vector<IterationRecord>* records,
                           RunSummary* summary) {
  COMMSIM_CHECK(setup.replay != nullptr && setup.objective != nullptr, "nothing to replay");
  const ReplayObjective objective(*setup.objective);
  ReplayPsRule rule(*setup.replay);
  RunParameterServer(ReplaySetup(setup, objective), rule, records, summary);
}

}  // namespace commsim
