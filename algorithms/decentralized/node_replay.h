// Replaying a decentralized trajectory (algorithms/trajectory.h) through the round driver
// (round_driver.h): ReplayNodeRule plays the recorded messages instead of the mathematics, so
// every round runs on the replay's network, compute and codec models exactly as in a full run.
// Slot: node i's message of round k is slot i (each node sends one message a round, the same to
// every neighbour). RunDecentralized builds the real rule first, for sends_before_compute(), and
// frees it before the replay runs.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_REPLAY_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_REPLAY_H_

#include "algorithms/decentralized/node_rule.h"
#include "algorithms/trajectory.h"

namespace commsim {

class ReplayNodeRule final : public NodeRule {
 public:
  // `trajectory` outlives the rule; `sends_before_compute` is the real rule's.
  ReplayNodeRule(const Trajectory& trajectory, int nodes, bool sends_before_compute)
      : trajectory_(trajectory), nodes_(nodes), sends_before_compute_(sends_before_compute) {}
  int num_nodes() const override { return nodes_; }
  bool sends_before_compute() const override { return sends_before_compute_; }
  // Round t (0-based) is the trajectory's round t + 1.
  Message Step(int node, int64_t t, int /*slot*/) override {
    return trajectory_.MessageAt(t + 1, node);
  }
  void Deliver(int, int, const Message&) override {}
  void Combine(int, int64_t) override {}
  // A finite stand-in: the driver's end-of-round check passes; metrics come from the trajectory.
  const Eigen::VectorXd& x(int) const override { return model_; }
  void SetX(int, const Eigen::Ref<const Eigen::VectorXd>&) override {}

 private:
  const Trajectory& trajectory_;
  int nodes_;
  bool sends_before_compute_;
  Eigen::VectorXd model_ = Eigen::VectorXd::Zero(1);
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_REPLAY_H_
