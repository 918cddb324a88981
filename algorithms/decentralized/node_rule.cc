#include "algorithms/decentralized/node_rule.h"

#include <vector>

namespace commsim {

int64_t RunSynchronousRound(NodeRule& rule, const MixingMatrix& mixing, int64_t t) {
  const int n = rule.num_nodes();
  std::vector<Message> sent;
  sent.reserve(n);
  int64_t bits = 0;
  for (int i = 0; i < n; ++i) {
    sent.push_back(rule.Step(i, t, 0));
    bits += sent.back().payload_bits;
  }
  for (int i = 0; i < n; ++i) {
    const std::vector<int>& nb = mixing.neighbours(i);
    for (size_t k = 0; k < nb.size(); ++k) rule.Deliver(i, static_cast<int>(k), sent[nb[k]]);
  }
  for (int i = 0; i < n; ++i) rule.Combine(i, t);
  return bits;
}

void SoftThreshold(double threshold, Eigen::Ref<Eigen::VectorXd> x) {
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double a = std::abs(x[j]) - threshold;
    x[j] = a > 0.0 ? std::copysign(a, x[j]) : 0.0;
  }
}

}  // namespace commsim
