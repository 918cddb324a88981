// dpsgd: D-PSGD (Lian et al. 2017). Each node sends its model x_i to every neighbour each round
// (default identity: 32d bits per copy; any compressor may be set) and mixes.
//
// Round t with gamma_t = step.At(t), at node i:
//   Step:    g_i = grad_i(x_i);  send Q(x_i) (default Q = identity: the full-precision model)
//   Deliver: y_ij = decoded x_j
//   Combine: x_i = w_ii x_i + sum_j w_ij y_ij - gamma_t g_i, then the l1 proximal step if
//            lambda (the model's l1) > 0.
// The message is x_i itself, not the gradient step, so it leaves at the start of the round while
// the gradient is computed (sends_before_compute).
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_DPSGD_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_DPSGD_H_

#include <vector>

#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/params.h"
#include "base/rng.h"

namespace commsim {

struct DpsgdConfig final : ConfigBase<DpsgdConfig> {
  DpsgdConfig();
  ComponentSpec compressor;  // default: identity (fp32)
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
};

// A D-PSGD node: x (GossipNode), its gradient and the models received from its neighbours.
struct DpsgdNode : GossipNode {
  DpsgdNode(const NodeRuleContext& context, int node, const Eigen::Ref<const Eigen::VectorXd>& x0);
  Eigen::VectorXd grad;
  std::vector<Eigen::VectorXd> received;  // one per neighbour slot
};

class DpsgdRule final : public NodesRule<DpsgdNode> {
 public:
  using Config = DpsgdConfig;
  DpsgdRule(const DpsgdConfig& config, const NodeRuleContext& context,
            const Eigen::Ref<const Eigen::VectorXd>& x0)
      : DpsgdRule(context, x0) {
    (void)config;
  }
  DpsgdRule(const NodeRuleContext& context, const Eigen::Ref<const Eigen::VectorXd>& x0);
  bool sends_before_compute() const override { return true; }
  Message Step(int node, int64_t t, int slot) override;
  void Deliver(int node, int slot, const Message& message) override;
  void Combine(int node, int64_t t) override;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_DPSGD_H_
