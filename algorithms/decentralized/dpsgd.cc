#include "algorithms/decentralized/dpsgd.h"

#include "algorithms/registry.h"
#include "models/objective.h"
#include "sim/check.h"

namespace commsim {

DpsgdConfig::DpsgdConfig() : compressor(CompressorSpec("identity")) {}

void DpsgdConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "how the model is sent (identity = full precision)");
  common.Describe(v);
}

DpsgdRule::DpsgdRule(const NodeRuleContext& context, const Eigen::Ref<const Eigen::VectorXd>& x0)
    : context_(context) {
  COMMSIM_CHECK(context.mixing != nullptr && context.compressor != nullptr, "incomplete context");
  COMMSIM_CHECK(x0.size() == context.dim, "x0 has {} entries, dim is {}", x0.size(), context.dim);
  const int n = context.mixing->num_nodes();
  nodes_.reserve(n);
  for (int i = 0; i < n; ++i) {
    nodes_.push_back(Node{x0, Eigen::VectorXd::Zero(context.dim),
                          std::vector<Eigen::VectorXd>(context.mixing->neighbours(i).size(),
                                                       Eigen::VectorXd::Zero(context.dim)),
                          Rng(context.seed, i, "batch"),
                          Rng(context.seed, i, "compress")});
  }
}

Message DpsgdRule::Step(int node, int64_t /*t*/, int /*slot*/) {
  Node& s = nodes_[node];
  if (context_.objective != nullptr) {
    context_.objective->Gradient(node, s.x, context_.batch, s.batch_rng, s.grad);
  }
  return context_.compressor->Encode(s.x, s.compress_rng);
}

void DpsgdRule::Deliver(int node, int slot, const Message& message) {
  context_.compressor->Decode(message, nodes_[node].received[slot]);
}

void DpsgdRule::Combine(int node, int64_t t) {
  Node& s = nodes_[node];
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
