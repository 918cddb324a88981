#include "algorithms/decentralized/gossip.h"

#include <fmt/format.h>

#include "base/check.h"
#include "base/error.h"
#include "compression/compressors/qsgd.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {

void RequireWorkerStarts(const RunSetup& setup) {
  if (setup.objective->WorkerStart(0) != nullptr) return;
  throw UserError(fmt::format(
      "gossip without gradients only averages the nodes' starting points, and on model '{}' "
      "every node starts at the same point; use the model \"consensus\" (or dpsgd, choco to "
      "learn)",
      setup.objective->Name()));
}

void GossipConfig::CheckSetup(const RunSetup& setup, const MixingMatrix& /*mixing*/) const {
  RequireWorkerStarts(setup);
}

void ChocoGossipConfig::CheckSetup(const RunSetup& setup, const MixingMatrix& /*mixing*/) const {
  RequireWorkerStarts(setup);
}

NodeRuleContext GossipOnly(const NodeRuleContext& context) {
  NodeRuleContext out = context;
  out.objective = nullptr;
  out.prox_l1 = 0.0;
  return out;
}

GossipConfig::GossipConfig() : compressor(CompressorSpec("identity")) {}

void GossipConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "how the model is sent (identity = full precision)");
  v.Real("gamma_c", gamma_c, Range::Open(0, 2),
         "consensus step: x += gamma_c (W x - x); 1 = x = W x, above 1 over-relaxes");
  common.Describe(v);
}

GossipRule::GossipRule(const GossipConfig& config, const NodeRuleContext& context,
                       const Eigen::Ref<const Eigen::VectorXd>& x0)
    : NodesRule(GossipOnly(context), x0), gamma_c_(config.gamma_c) {}

Message GossipRule::Step(int node, int64_t /*t*/, int /*slot*/) {
  DpsgdNode& s = nodes_[node];
  return context_.compressor->Encode(s.x, s.compress_rng);
}

void GossipRule::Deliver(int node, int slot, const Message& message) {
  context_.compressor->Decode(message, nodes_[node].received[slot]);
}

void GossipRule::Combine(int node, int64_t /*t*/) {
  DpsgdNode& s = nodes_[node];
  const MixingMatrix& w = *context_.mixing;
  Eigen::VectorXd& mixed = s.grad;  // no gradient: its vector holds W x
  mixed.noalias() = w.self_weight(node) * s.x;
  for (size_t k = 0; k < s.received.size(); ++k) {
    mixed.noalias() += w.weight(node, static_cast<int>(k)) * s.received[k];
  }
  s.x += gamma_c_ * (mixed - s.x);
}

ChocoGossipConfig::ChocoGossipConfig() : compressor(CompressorSpec("qsgd")) {
  auto& qsgd = static_cast<QsgdConfig&>(*compressor.config);
  qsgd.levels = 15;
  qsgd.coding = "fixed";
}

void ChocoGossipConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "Q applied to x - x-hat (any compressor)");
  v.Real("gamma_c", gamma_c, Range::OpenClosed(0, 1),
         "consensus step size (tune with `commsim tune-consensus`)");
  v.Text("rescale", rescale, ChocoRescaleChoices(),
         "auto: divide an unbiased Q by tau = 1 + omega (CHOCO's contraction); none: use Q as is");
  common.Describe(v);
}

ChocoGossipRule::ChocoGossipRule(const ChocoGossipConfig& config, const NodeRuleContext& context,
                                 const Eigen::Ref<const Eigen::VectorXd>& x0)
    : ChocoRule(GossipOnly(context), config.gamma_c, x0,
                ChocoScale(config.rescale, *context.compressor, context.dim)) {}

}  // namespace commsim
