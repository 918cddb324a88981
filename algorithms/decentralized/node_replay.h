// Replaying a decentralized trajectory (algorithms/trajectory.h) through the round driver
// (round_driver.h): ReplayNodeRule plays the recorded messages instead of the mathematics, so
// every round runs on the replay's network, compute and codec models exactly as in a full run.
// Slots: node i's message of exchange e to neighbour slot k is TrajectorySlot(n, max degree, e,
// i, k) (node_rule.h; k = -1 for a message to every neighbour), so a one-exchange rule's message
// of node i is slot i. RunDecentralized builds the real rule first, for its exchanges, compute
// exchanges and sends_before_compute(), and frees it before the replay runs.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_REPLAY_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_REPLAY_H_

#include <algorithm>
#include <vector>

#include "algorithms/decentralized/node_rule.h"
#include "algorithms/trajectory.h"

namespace commsim {

class ReplayNodeRule final : public NodeRule {
 public:
  // `trajectory` and `mixing` outlive the rule; `real` is the rule that recorded it.
  ReplayNodeRule(const Trajectory& trajectory, const MixingMatrix& mixing, const NodeRule& real)
      : trajectory_(trajectory),
        mixing_(mixing),
        sends_before_compute_(real.sends_before_compute()),
        exchanges_(real.exchanges()) {
    for (int i = 0; i < real.num_nodes(); ++i) {
      compute_exchange_.push_back(real.compute_exchange(i));
      max_degree_ = std::max(max_degree_, static_cast<int>(mixing.neighbours(i).size()));
    }
  }
  int num_nodes() const override { return static_cast<int>(compute_exchange_.size()); }
  bool sends_before_compute() const override { return sends_before_compute_; }
  int exchanges() const override { return exchanges_; }
  int compute_exchange(int node) const override { return compute_exchange_[node]; }
  // Round t (0-based) is the trajectory's round t + 1; a round it did not record throws.
  Outbox StepIn(int node, int64_t t, int e, int /*slot*/) override {
    const int all = TrajectorySlot(num_nodes(), max_degree_, e, node, -1);
    if (t + 1 > trajectory_.rounds() || trajectory_.HasMessage(t + 1, all)) {
      return Outbox::ToAll(trajectory_.MessageAt(t + 1, all));
    }
    Outbox out;
    for (size_t k = 0; k < mixing_.neighbours(node).size(); ++k) {
      const int slot = TrajectorySlot(num_nodes(), max_degree_, e, node, static_cast<int>(k));
      out.each.push_back(trajectory_.HasMessage(t + 1, slot)
                             ? std::optional<Message>(trajectory_.MessageAt(t + 1, slot))
                             : std::nullopt);
    }
    return out;
  }
  void DeliverIn(int, int, int, const Message&) override {}
  void CombineIn(int, int64_t, int) override {}
  // A finite stand-in: the driver's end-of-round check passes; metrics come from the trajectory.
  const Eigen::VectorXd& x(int) const override { return model_; }
  void SetX(int, const Eigen::Ref<const Eigen::VectorXd>&) override {}

 private:
  const Trajectory& trajectory_;
  const MixingMatrix& mixing_;
  bool sends_before_compute_;
  int exchanges_;
  std::vector<int> compute_exchange_;
  int max_degree_ = 0;
  Eigen::VectorXd model_ = Eigen::VectorXd::Zero(1);
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_REPLAY_H_
