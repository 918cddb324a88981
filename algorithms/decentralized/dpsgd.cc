#include "algorithms/decentralized/dpsgd.h"

#include "base/check.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {

DpsgdConfig::DpsgdConfig() : compressor(CompressorSpec("identity")) {}

void DpsgdConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "how the model is sent (identity = full precision)");
  common.Describe(v);
}

DpsgdNode::DpsgdNode(const NodeRuleContext& context, int node,
                     const Eigen::Ref<const Eigen::VectorXd>& x0)
    : GossipNode(context, node, x0),
      grad(Eigen::VectorXd::Zero(context.dim)),
      received(context.mixing->neighbours(node).size(), Eigen::VectorXd::Zero(context.dim)) {}

DpsgdRule::DpsgdRule(const NodeRuleContext& context, const Eigen::Ref<const Eigen::VectorXd>& x0)
    : NodesRule(context, x0) {}

Message DpsgdRule::Step(int node, int64_t /*t*/, int /*slot*/) {
  DpsgdNode& s = nodes_[node];
  if (context_.objective != nullptr) {
    context_.objective->Gradient(node, s.x, context_.batch, s.batch_rng, s.grad);
  }
  return context_.compressor->Encode(s.x, s.compress_rng);
}

void DpsgdRule::Deliver(int node, int slot, const Message& message) {
  context_.compressor->Decode(message, nodes_[node].received[slot]);
}

void DpsgdRule::Combine(int node, int64_t t) {
  DpsgdNode& s = nodes_[node];
  const MixingMatrix& w = *context_.mixing;
  const double gamma = context_.step.At(t);
  s.x *= w.self_weight(node);
  for (size_t k = 0; k < s.received.size(); ++k) {
    s.x.noalias() += w.weight(node, static_cast<int>(k)) * s.received[k];
  }
  s.x.noalias() -= gamma * s.grad;
  if (context_.prox_l1 > 0.0) SoftThreshold(gamma * context_.prox_l1, s.x);
}

}  // namespace commsim
