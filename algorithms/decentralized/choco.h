// choco: CHOCO-SGD (Koloskova, Stich, Jaggi 2019) and malcom: MALCOM-PSGD (Campbell et al. 2023),
// one rule (ChocoRule). MALCOM is CHOCO-SGD with the `dithered` quantizer and its vector source
// code, a proximal l1 step and (by the entry's `step`) gamma_0/sqrt(t+1); registered as the same
// rule with other defaults, so with mu = 0 and the same compressor and seed the two produce the
// same trajectory bit for bit.
//
// Per round each node sends one message, Q(x_half - x-hat_i), to every neighbour; its payload is
// the compressor's encoded length (e.g. qsgd fixed: 32 + b (1 + ceil(log2(s+1))) per bucket;
// dithered: 32 + vector source code of the integer levels).
//
// State of node i: x_i, x-hat_i (its public copy), and one replica of x-hat_j per neighbour j.
// Round t with gamma_t = step.At(t):
//   Step:    x_half = x_i - gamma_t grad_i(x_i);  q_i = Q(x_half - x-hat_i) / tau;  x-hat_i += q_i;
//            send q_i (encoded once, the same message to every neighbour)
//   Deliver: replica_i(x-hat_j) += q_j   (decoded from j's message)
//   Combine: s_i = w_ii x-hat_i + sum_j w_ij replica_i(x-hat_j);
//            x_i = x_half + gamma_c (s_i - x-hat_i),
//            then x_i = prox_{gamma_t lambda ||.||_1}(x_i) when lambda (the model's l1 + mu) > 0.
// tau >= 1 rescales the decoded vector (sender and receivers alike): the CHOCO paper's
// tau = 1 + omega turns an unbiased compressor with E||Q(x) - x||^2 <= omega ||x||^2 into a
// contraction; without it the copies x-hat diverge whenever omega >= 1 (see ChocoScale).
// x-hat and the replicas start at 0. Because sender and receivers add the same decoded vector to
// the same starting value, every replica of x-hat_j equals x-hat_j bit for bit (tested).
// Memory: (3 + deg_i) d doubles per node, plus d per thread (Step's scratch). Combine sums s_i
// in x_i itself (Step leaves x_i alone; Combine overwrites it).
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_CHOCO_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_CHOCO_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/params.h"
#include "base/rng.h"

namespace commsim {

struct ChocoConfig final : ConfigBase<ChocoConfig> {
  ChocoConfig();
  ComponentSpec compressor;  // default: qsgd, 15 levels (4 bits), fixed coding
  double gamma_c = 0.3;
  std::string rescale = "auto";
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
};

// The malcom registry entry's defaults: dithered (15 levels, vector source code).
void SetMalcomDefaults(ChocoConfig& config);

// A CHOCO node: x (GossipNode), x_half, its own x-hat and its replicas of its neighbours'.
struct ChocoNode : GossipNode {
  ChocoNode(const NodeRuleContext& context, int node, const Eigen::Ref<const Eigen::VectorXd>& x0);
  Eigen::VectorXd x_half, x_hat;
  std::vector<Eigen::VectorXd> replicas;  // one per neighbour slot
};

class ChocoRule : public NodesRule<ChocoNode> {
 public:
  using Config = ChocoConfig;
  // The rule of a config: gamma_c, and tau = ChocoScale(rescale, compressor, dim).
  ChocoRule(const ChocoConfig& config, const NodeRuleContext& context,
            const Eigen::Ref<const Eigen::VectorXd>& x0);
  // REQUIRES: 0 < gamma_c <= 1, tau >= 1. Every node starts at x0.
  ChocoRule(const NodeRuleContext& context, double gamma_c,
            const Eigen::Ref<const Eigen::VectorXd>& x0, double tau = 1.0);
  bool sends_before_compute() const override { return false; }
  Message Step(int node, int64_t t, int slot) override;
  void Deliver(int node, int slot, const Message& message) override;
  void Combine(int node, int64_t t) override;

  const Eigen::VectorXd& x_hat(int node) const { return nodes_[node].x_hat; }
  // Node `node`'s replica of x-hat of its neighbour mixing.neighbours(node)[slot].
  const Eigen::VectorXd& replica(int node, int slot) const { return nodes_[node].replicas[slot]; }

 private:
  double gamma_c_;
  double inv_tau_;
  std::vector<Eigen::VectorXd> scratch_;  // per slot: the gradient, then x_half - x-hat_i
};

// The rescaling of `rescale` ("auto" or "none") for compressor q on vectors of dimension dim:
// auto = 1 + q.ErrorFactor(dim) for unbiased compressors (the CHOCO paper's tau), 1 otherwise;
// none = 1.
std::span<const std::string_view> ChocoRescaleChoices();
double ChocoScale(std::string_view rescale, const Compressor& q, int64_t dim);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_CHOCO_H_
