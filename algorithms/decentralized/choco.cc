#include "algorithms/decentralized/choco.h"

#include <array>

#include "base/check.h"
#include "compression/compressors/qsgd.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {

namespace {
constexpr std::array<std::string_view, 2> kRescale = {"auto", "none"};
}  // namespace

std::span<const std::string_view> ChocoRescaleChoices() { return kRescale; }

double ChocoScale(std::string_view rescale, const Compressor& q, int64_t dim) {
  COMMSIM_CHECK(rescale == "auto" || rescale == "none", "unknown rescale {}", rescale);
  return rescale == "auto" && q.unbiased() ? 1.0 + q.ErrorFactor(dim) : 1.0;
}

ChocoRule::ChocoRule(const ChocoConfig& config, const NodeRuleContext& context,
                     const Eigen::Ref<const Eigen::VectorXd>& x0)
    : ChocoRule(context, config.gamma_c, x0,
                ChocoScale(config.rescale, *context.compressor, context.dim)) {}

ChocoNode::ChocoNode(const NodeRuleContext& context, int node,
                     const Eigen::Ref<const Eigen::VectorXd>& x0)
    : GossipNode(context, node, x0),
      x_half(Eigen::VectorXd::Zero(context.dim)),
      x_hat(Eigen::VectorXd::Zero(context.dim)),
      replicas(context.mixing->neighbours(node).size(), Eigen::VectorXd::Zero(context.dim)) {}

ChocoRule::ChocoRule(const NodeRuleContext& context, double gamma_c,
                     const Eigen::Ref<const Eigen::VectorXd>& x0, double tau)
    : NodesRule(context, x0), gamma_c_(gamma_c), inv_tau_(1.0 / tau) {
  COMMSIM_CHECK(tau >= 1.0, "tau {} < 1", tau);
  COMMSIM_CHECK(context.threads >= 1, "threads {} < 1", context.threads);
  COMMSIM_CHECK(gamma_c > 0.0 && gamma_c <= 1.0, "gamma_c {} outside (0, 1]", gamma_c);
  scratch_.assign(static_cast<size_t>(context.threads), Eigen::VectorXd(context.dim));
}

Message ChocoRule::Step(int node, int64_t t, int slot) {
  COMMSIM_CHECK(slot >= 0 && static_cast<size_t>(slot) < scratch_.size(), "slot {} of {}", slot,
                scratch_.size());
  ChocoNode& s = nodes_[node];
  Eigen::VectorXd& scratch = scratch_[static_cast<size_t>(slot)];
  if (context_.objective != nullptr) {
    context_.objective->Gradient(node, s.x, context_.batch, s.batch_rng, scratch);
    s.x_half.noalias() = s.x - context_.step.At(t) * scratch;
  } else {
    s.x_half = s.x;
  }
  scratch.noalias() = s.x_half - s.x_hat;
  // x^_i += q^ / tau, the decoded values delivered by the encoder (no second decode pass).
  return context_.compressor->EncodeWithDecoded(scratch, s.compress_rng,
                                                DecodeTarget(s.x_hat, s.x_hat, inv_tau_));
}

void ChocoRule::Deliver(int node, int slot, const Message& message) {
  Eigen::VectorXd& replica = nodes_[node].replicas[slot];
  context_.compressor->DecodeInto(message, DecodeTarget(replica, replica, inv_tau_));
}

void ChocoRule::Combine(int node, int64_t t) {
  ChocoNode& s = nodes_[node];
  const MixingMatrix& w = *context_.mixing;
  // s_i, summed in x_i (its old value is not needed: x_half holds the local step).
  Eigen::VectorXd& sum = s.x;
  sum.noalias() = w.self_weight(node) * s.x_hat;
  for (size_t k = 0; k < s.replicas.size(); ++k) {
    sum.noalias() += w.weight(node, static_cast<int>(k)) * s.replicas[k];
  }
  s.x = s.x_half + gamma_c_ * (sum - s.x_hat);  // elementwise: reading sum in place is safe
  if (context_.prox_l1 > 0.0) SoftThreshold(context_.step.At(t) * context_.prox_l1, s.x);
}

ChocoConfig::ChocoConfig() : compressor(CompressorSpec("qsgd")) {
  auto& qsgd = static_cast<QsgdConfig&>(*compressor.config);
  qsgd.levels = 15;
  qsgd.coding = "fixed";
}

void ChocoConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "Q applied to x_half - x-hat (any compressor)");
  v.Real("gamma_c", gamma_c, Range::OpenClosed(0, 1),
         "consensus step size (tune with `commsim tune-consensus`)");
  v.Text("rescale", rescale, ChocoRescaleChoices(),
         "auto: divide an unbiased Q by tau = 1 + omega (CHOCO's contraction); none: use Q as is");
  common.Describe(v);
  v.Real("mu", common.mu, Range::NonNegative(),
         "l1 weight of the proximal step, added to the model's own l1 (0 = the model's only)");
}

void SetMalcomDefaults(ChocoConfig& config) {
  config.compressor = CompressorSpec("dithered");  // 15 levels, vector source code
}

}  // namespace commsim
