// Replaying a parameter-server trajectory (algorithms/trajectory.h) through the parameter-server
// driver (ps_driver.h): ReplayPsRule plays the recorded messages instead of the mathematics, so
// the round's shape and timing come from the one driver on the replay's network, compute and
// codec models. Slots: worker w's uplink is slot w, the downlink slot `workers`
// (kPsDownlinkSlot below); the driver records them under the same slots.
#ifndef COMMSIM_ALGORITHMS_PS_PS_REPLAY_H_
#define COMMSIM_ALGORITHMS_PS_PS_REPLAY_H_

#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/ps/ps_rule.h"
#include "algorithms/trajectory.h"
#include "records/records.h"

namespace commsim {

// The downlink's slot in a round of `workers` workers.
inline int PsDownlinkSlot(int workers) { return workers; }

class ReplayPsRule final : public PsRule {
 public:
  // `trajectory` outlives the rule.
  explicit ReplayPsRule(const Trajectory& trajectory) : trajectory_(trajectory) {}
  void Init(int workers, const ConstVec& x0, const Objective& objective) override;
  const Eigen::VectorXd& WorkerPoint(int) const override { return model_; }
  Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) override;
  void ServerReceive(int, const Message&) override {}
  Message ServerRound(double step, Rng& rng) override;
  void WorkerReceive(int, const Message&, double) override {}
  // A finite stand-in: the driver's end-of-round check passes; metrics come from the trajectory.
  const Eigen::VectorXd& Model() const override { return model_; }

 private:
  const Trajectory& trajectory_;
  int workers_ = 0;
  std::vector<int64_t> worker_round_;  // rounds each worker has encoded
  int64_t server_round_ = 0;
  Eigen::VectorXd model_ = Eigen::VectorXd::Zero(1);
};

// Runs setup.replay (REQUIRES: not null) through the parameter-server driver.
void ReplayParameterServer(const RunSetup& setup, std::vector<IterationRecord>* records,
                           RunSummary* summary);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_PS_REPLAY_H_
