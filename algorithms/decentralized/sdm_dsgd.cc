#include "algorithms/decentralized/sdm_dsgd.h"

#include <cmath>

#include "base/check.h"
#include "compression/compressors/rand_k.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {

SdmDsgdConfig::SdmDsgdConfig() : compressor(CompressorSpec("rand_k")) {
  static_cast<RandKConfig&>(*compressor.config).fraction = 0.1;
}

void SdmDsgdConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor,
              "the sparsifier S of the masked difference (rand_k: keeps a fraction)");
  v.Real("sigma", sigma, Range::NonNegative(), "std of the Gaussian mask per coordinate");
  v.Real("clip", clip, Range::NonNegative(), "gradient norm bound G (0 = no clipping)");
  v.Real("delta", delta, Range::Open(0, 1), "delta of the reported (epsilon, delta) per step");
  common.Describe(v);
}

SdmNode::SdmNode(const NodeRuleContext& context, int node,
                 const Eigen::Ref<const Eigen::VectorXd>& x0)
    : GossipNode(context, node, x0),
      next(x0),
      pub(x0),
      grad(Eigen::VectorXd::Zero(context.dim)),
      replicas(context.mixing->neighbours(node).size(), x0),
      mask_rng(context.seed, node, "mask") {}

SdmDsgdRule::SdmDsgdRule(const SdmDsgdConfig& config, const NodeRuleContext& context,
                         const Eigen::Ref<const Eigen::VectorXd>& x0)
    : NodesRule(context, x0), config_(config) {
  scratch_.assign(static_cast<size_t>(context.threads), Eigen::VectorXd(context.dim));
}

Message SdmDsgdRule::Step(int node, int64_t t, int slot) {
  SdmNode& s = nodes_[node];
  const MixingMatrix& w = *context_.mixing;
  s.next.noalias() = w.self_weight(node) * s.pub;
  for (size_t k = 0; k < s.replicas.size(); ++k) {
    s.next.noalias() += w.weight(node, static_cast<int>(k)) * s.replicas[k];
  }
  if (context_.objective != nullptr) {
    context_.objective->Gradient(node, s.x, context_.batch, s.batch_rng, s.grad);
    const double norm = s.grad.norm();
    if (config_.clip > 0.0 && norm > config_.clip) s.grad *= config_.clip / norm;
    s.next.noalias() -= context_.step.At(t) * s.grad;
  }
  Eigen::VectorXd& u = scratch_[static_cast<size_t>(slot)];
  u = s.next - s.pub;
  if (config_.sigma > 0.0) {
    for (Eigen::Index j = 0; j < u.size(); ++j) u[j] += config_.sigma * s.mask_rng.Normal();
  }
  return context_.compressor->EncodeWithDecoded(u, s.compress_rng, DecodeTarget(s.pub, s.pub, 1.0));
}

void SdmDsgdRule::Deliver(int node, int slot, const Message& message) {
  Eigen::VectorXd& replica = nodes_[node].replicas[slot];
  context_.compressor->DecodeInto(message, DecodeTarget(replica, replica, 1.0));
}

void SdmDsgdRule::Combine(int node, int64_t t) {
  SdmNode& s = nodes_[node];
  s.x = s.next;
  if (context_.prox_l1 > 0.0) SoftThreshold(context_.step.At(t) * context_.prox_l1, s.x);
}

std::vector<std::pair<std::string, double>> SdmDsgdRule::SummaryExtras() const {
  std::vector<std::pair<std::string, double>> extras = {{"privacy_sigma", config_.sigma},
                                                        {"privacy_clip", config_.clip}};
  if (config_.sigma > 0.0 && config_.clip > 0.0) {  // else no finite epsilon
    const double spread = std::sqrt(2.0 * std::log(1.25 / config_.delta));
    extras.emplace_back("privacy_epsilon_step",
                        2.0 * context_.step.At(0) * config_.clip * spread / config_.sigma);
  }
  return extras;
}

}  // namespace commsim
