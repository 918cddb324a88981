// Replaying a collective trajectory (algorithms/trajectory.h) through the collective driver
// (collective_driver.h): ReplayCollectiveRule plays the recorded all-gather messages instead of
// the mathematics, so every round's collectives run on the replay's network, compute and codec
// models exactly as in a full run. Slots: worker w's message of phase p is slot
// CollectiveSlot(workers, p, w); all-reduce phases record nothing (their messages follow from the
// phase's length, the schedule and the value width, which a replay shares with the recording).
// The phases come from the real rule, initialised once against the replay's objective and freed
// before the replay runs.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_REPLAY_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_REPLAY_H_

#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/collective/collective_rule.h"
#include "algorithms/trajectory.h"
#include "sim/records.h"

namespace commsim {

struct CollectiveOptions;

inline int CollectiveSlot(int workers, int phase, int w) { return phase * workers + w; }

class ReplayCollectiveRule final : public CollectiveRule {
 public:
  // `trajectory` outlives the rule; `phases` are the real rule's.
  ReplayCollectiveRule(const Trajectory& trajectory, std::vector<CollectivePhase> phases)
      : trajectory_(trajectory), phases_(std::move(phases)) {}
  void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>&, const Objective&,
            const LayerProfile*, uint64_t) override {
    workers_ = workers;
  }
  std::vector<CollectivePhase> Phases() const override { return phases_; }
  // Zeros: the values do not matter for timing, and stale sums must not grow past fp32.
  void Input(int, int, const Eigen::Ref<const Eigen::VectorXd>&, double,
             Eigen::Ref<Eigen::VectorXd> out) override {
    out.setZero();
  }
  Message Encode(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>&, double,
                 Rng&) override {
    return trajectory_.MessageAt(round_ + 1, CollectiveSlot(workers_, phase, w));
  }
  void EndRound(double) override { ++round_; }
  // A finite stand-in: the driver's end-of-round check passes; metrics come from the trajectory.
  const Eigen::VectorXd& Model() const override { return model_; }

 private:
  const Trajectory& trajectory_;
  std::vector<CollectivePhase> phases_;
  int workers_ = 0;
  int64_t round_ = 0;  // rounds ended
  Eigen::VectorXd model_ = Eigen::VectorXd::Zero(1);
};

// The phases of `rule` (a fresh rule, not yet initialised) on setup's model, as the replay of
// setup.replay needs them. REQUIRES: setup.objective is not null.
std::vector<CollectivePhase> ReplayPhases(CollectiveRule& rule, const RunSetup& setup);

// Runs setup.replay (REQUIRES: not null) through the collective driver with `phases` (from
// ReplayPhases).
void ReplayCollective(const RunSetup& setup, const CollectiveOptions& options,
                      std::vector<CollectivePhase> phases, std::vector<IterationRecord>* records,
                      RunSummary* summary);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_REPLAY_H_
