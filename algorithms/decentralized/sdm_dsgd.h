// sdm_dsgd: SDM-DSGD, sparse differential Gaussian-masking decentralized SGD (Zhang, Fang, Liu,
// Zhu 2020) [recon]: the rule below is reconstructed from the paper's abstract and the same
// group's differential-coded DGD, not checked against the paper's text.
//
// State of node i: its private model x_i, its public copy x~_i and a replica of every
// neighbour's x~_j, all starting at x0 (so every replica equals its owner's copy bit for bit, as
// in CHOCO).
// Round t with gamma_t = step.At(t):
//   Step:    g_i = grad_i(x_i) (mini-batch), scaled down to norm <= clip when clip > 0;
//            x_i' = w_ii x~_i + sum_j w_ij x~_j - gamma_t g_i          (DSGD on the public copies)
//            u_i = x_i' - x~_i + n_i,  n_i ~ N(0, sigma^2 I)           (the Gaussian mask)
//            send S(u_i) (the compressor; default rand_k, 10%: the sparsifier), x~_i += S(u_i)
//   Deliver: replica(x~_j) += S(u_j)
//   Combine: x_i = x_i', then the l1 proximal step when lambda > 0.
// The noise comes from the per-node stream DeriveSeed(seed, i, "mask").
// Bits: the compressor's; rand_k sends 64 + 32k bits (a seed for the indices, k fp32 values),
// k = round(fraction d), so the message density is k / d.
// Privacy (summary extras): privacy_sigma = sigma, privacy_clip = clip and
// privacy_epsilon_step = 2 gamma_0 clip sqrt(2 ln(1.25 / delta)) / sigma, the Gaussian
// mechanism's epsilon for one step of a node whose step moves by at most gamma_0 clip (a
// change of one sample's data changes the clipped step by at most 2 gamma_0 clip; reported only
// when sigma > 0 and clip > 0) [recon]; the composition over the run is left to an accountant.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_SDM_DSGD_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_SDM_DSGD_H_

#include <string>
#include <utility>
#include <vector>

#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/params.h"
#include "base/rng.h"

namespace commsim {

struct SdmDsgdConfig final : ConfigBase<SdmDsgdConfig> {
  SdmDsgdConfig();
  ComponentSpec compressor;  // default: rand_k, fraction 0.1, not rescaled
  double sigma = 1e-3;
  double clip = 10.0;
  double delta = 1e-5;
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
};

struct SdmNode : GossipNode {
  SdmNode(const NodeRuleContext& context, int node, const Eigen::Ref<const Eigen::VectorXd>& x0);
  Eigen::VectorXd next, pub, grad;
  std::vector<Eigen::VectorXd> replicas;  // one per neighbour slot
  Rng mask_rng;
};

class SdmDsgdRule final : public NodesRule<SdmNode> {
 public:
  using Config = SdmDsgdConfig;
  SdmDsgdRule(const SdmDsgdConfig& config, const NodeRuleContext& context,
              const Eigen::Ref<const Eigen::VectorXd>& x0);
  bool sends_before_compute() const override { return false; }
  Message Step(int node, int64_t t, int slot) override;
  void Deliver(int node, int slot, const Message& message) override;
  void Combine(int node, int64_t t) override;
  std::vector<std::pair<std::string, double>> SummaryExtras() const override;

 private:
  SdmDsgdConfig config_;
  std::vector<Eigen::VectorXd> scratch_;  // per thread slot: u_i
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_SDM_DSGD_H_
