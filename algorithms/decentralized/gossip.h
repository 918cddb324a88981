// gossip and choco_gossip: average consensus, no gradient step (the context's objective is
// ignored). They run on a problem whose workers start apart (Objective::WorkerStart: the
// `consensus` model); on any other every node starts at the same point and nothing would move, so
// the run is refused (UserError).
//
// gossip (plain gossip, exact or through any compressor; default identity: 32d bits per copy):
//   Step:    send Q(x_i)                     Deliver: y_ij = decoded x_j
//   Combine: x_i = x_i + gamma_c (w_ii x_i + sum_j w_ij y_ij - x_i)
// gamma_c = 1 is x = W x; gamma_c > 1 over-relaxes (the PowerGossip paper's 8-ring runs use
// 1.308 = 2 / (lambda_min+(I - W) + lambda_max(I - W)), which converges for gamma_c < 2 /
// lambda_max (I - W)). choco_gossip (CHOCO-Gossip, Koloskova et al. 2019): the CHOCO rule of
// choco.h without its gradient and proximal steps: q_i = Q(x_i - x-hat_i) / tau, x-hat_i += q_i,
// send q_i; every neighbour's replica += q_j; x_i += gamma_c (w_ii x-hat_i + sum_j w_ij x-hat_j -
// x-hat_i). The average of the x_i is preserved exactly (up to rounding); bits are the compressor's
// encoded length, one message per node per round to every neighbour.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_GOSSIP_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_GOSSIP_H_

#include <string>
#include <vector>

#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/dpsgd.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/params.h"

namespace commsim {

// Throws UserError when setup.objective gives its workers no starting points of their own.
void RequireWorkerStarts(const RunSetup& setup);

// The context without its objective and proximal step: a gossip-only rule.
NodeRuleContext GossipOnly(const NodeRuleContext& context);

struct GossipConfig final : ConfigBase<GossipConfig> {
  // UserError unless the problem's workers start apart (RequireWorkerStarts).
  void CheckSetup(const RunSetup& setup, const MixingMatrix& mixing) const;
  GossipConfig();
  ComponentSpec compressor;  // default: identity (fp32)
  double gamma_c = 1.0;
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
};

class GossipRule final : public NodesRule<DpsgdNode> {
 public:
  using Config = GossipConfig;
  GossipRule(const GossipConfig& config, const NodeRuleContext& context,
             const Eigen::Ref<const Eigen::VectorXd>& x0);
  bool sends_before_compute() const override { return true; }
  Message Step(int node, int64_t t, int slot) override;
  void Deliver(int node, int slot, const Message& message) override;
  void Combine(int node, int64_t t) override;

 private:
  double gamma_c_;
};

struct ChocoGossipConfig final : ConfigBase<ChocoGossipConfig> {
  // UserError unless the problem's workers start apart (RequireWorkerStarts).
  void CheckSetup(const RunSetup& setup, const MixingMatrix& mixing) const;
  ChocoGossipConfig();
  ComponentSpec compressor;  // default: qsgd, 15 levels (4 bits), fixed coding (as choco)
  double gamma_c = 0.3;
  std::string rescale = "auto";
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
};

class ChocoGossipRule final : public ChocoRule {
 public:
  using Config = ChocoGossipConfig;
  ChocoGossipRule(const ChocoGossipConfig& config, const NodeRuleContext& context,
                  const Eigen::Ref<const Eigen::VectorXd>& x0);
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_GOSSIP_H_
