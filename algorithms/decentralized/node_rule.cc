#include "algorithms/decentralized/node_rule.h"

#include <vector>

namespace commsim {

Message NodeRule::Step(int /*node*/, int64_t /*t*/, int /*slot*/) {
  COMMSIM_CHECK(false, "this rule overrides StepIn, not Step");
  return Message();
}
void NodeRule::Deliver(int /*node*/, int /*slot*/, const Message& /*message*/) {
  COMMSIM_CHECK(false, "this rule overrides DeliverIn, not Deliver");
}
void NodeRule::Combine(int /*node*/, int64_t /*t*/) {
  COMMSIM_CHECK(false, "this rule overrides CombineIn, not Combine");
}

int TrajectorySlot(int nodes, int max_degree, int exchange, int node, int k) {
  return (exchange * (max_degree + 1) + k + 1) * nodes + node;
}

int64_t RunSynchronousRound(NodeRule& rule, const MixingMatrix& mixing, int64_t t) {
  const int n = rule.num_nodes();
  std::vector<Outbox> sent(static_cast<size_t>(n));
  int64_t bits = 0;
  for (int e = 0; e < rule.exchanges(); ++e) {
    for (int i = 0; i < n; ++i) {
      sent[i] = rule.StepIn(i, t, e, 0);
      if (sent[i].all) bits += sent[i].all->payload_bits;
      for (const std::optional<Message>& m : sent[i].each) bits += m ? m->payload_bits : 0;
    }
    for (int i = 0; i < n; ++i) {
      const std::vector<int>& nb = mixing.neighbours(i);
      for (size_t k = 0; k < nb.size(); ++k) {
        const Outbox& from = sent[nb[k]];
        const int back = mixing.SlotOf(nb[k], i);
        if (from.all) {
          rule.DeliverIn(i, e, static_cast<int>(k), *from.all);
        } else if (from.Addresses(back)) {
          rule.DeliverIn(i, e, static_cast<int>(k), *from.each[back]);
        }
      }
    }
    for (int i = 0; i < n; ++i) rule.CombineIn(i, t, e);
  }
  return bits;
}

void SoftThreshold(double threshold, Eigen::Ref<Eigen::VectorXd> x) {
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double a = std::abs(x[j]) - threshold;
    x[j] = a > 0.0 ? std::copysign(a, x[j]) : 0.0;
  }
}

}  // namespace commsim
