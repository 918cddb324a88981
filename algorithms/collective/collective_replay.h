// Replaying a collective trajectory (algorithms/trajectory.h) through the collective driver
// (collective_driver.h): ReplayCollectiveRule plays the recorded all-gather messages instead of
// the mathematics, so every round's collectives run on the replay's network, compute and codec
// models exactly as in a full run. Slots: worker w's message of phase p is slot
// CollectiveSlot(workers, p, w). All-reduce phases record nothing: their messages follow from the
// phase's length, the schedule and the value width, which a replay shares with the recording, and
// a replay runs them timing only (CollectiveWire::timing_only: same message shapes, no values).
// The phases come from the real rule (CollectiveRule::Phases needs no Init, so none of its state
// is allocated).
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_REPLAY_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_REPLAY_H_

#include <utility>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/collective/collective_rule.h"
#include "algorithms/trajectory.h"
#include "records/records.h"

namespace commsim {

struct CollectiveOptions;

inline int CollectiveSlot(int workers, int phase, int w) { return phase * workers + w; }

class ReplayCollectiveRule final : public CollectiveRule {
 public:
  // `trajectory` outlives the rule; `phases` and `local_steps` are the real rule's.
  ReplayCollectiveRule(const Trajectory& trajectory, std::vector<CollectivePhase> phases,
                       int local_steps)
      : trajectory_(trajectory), phases_(std::move(phases)), local_steps_(local_steps) {}
  void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>&, const Objective&,
            const LayerProfile*, uint64_t) override {
    workers_ = workers;
  }
  std::vector<CollectivePhase> Phases(int64_t, const LayerProfile*) const override {
    return phases_;
  }
  int LocalSteps() const override { return local_steps_; }
  // Input: the base's no-op (a replay's all-reduces carry no values: CollectiveWire::timing_only).
  Message Encode(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>&, double,
                 Rng&) override {
    return trajectory_.MessageAt(round_ + 1, CollectiveSlot(workers_, phase, w));
  }
  // The recorded compressed message of an all-reduce phase (encoded before, decoded after), or
  // nullptr when the phase all-reduces plain values.
  const Message* Coded(int w, int phase) const override {
    const int slot = CollectiveSlot(workers_, phase, w);
    if (!trajectory_.HasMessage(round_ + 1, slot)) return nullptr;
    coded_.resize(static_cast<size_t>(workers_));
    coded_[static_cast<size_t>(w)] = trajectory_.MessageAt(round_ + 1, slot);
    return &coded_[static_cast<size_t>(w)];
  }
  void EndRound(double) override { ++round_; }
  // A finite stand-in: the driver's end-of-round check passes; metrics come from the trajectory.
  const Eigen::VectorXd& Model() const override { return model_; }

 private:
  const Trajectory& trajectory_;
  std::vector<CollectivePhase> phases_;
  int local_steps_;
  int workers_ = 0;
  int64_t round_ = 0;                   // rounds ended
  mutable std::vector<Message> coded_;  // Coded's answer, per worker
  Eigen::VectorXd model_ = Eigen::VectorXd::Zero(1);
};

// Runs setup.replay (REQUIRES: not null) through the collective driver with the phases of
// `rule` (the real rule, never initialised).
void ReplayCollective(const RunSetup& setup, const CollectiveOptions& options, CollectiveRule& rule,
                      std::vector<IterationRecord>* records, RunSummary* summary);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_REPLAY_H_
