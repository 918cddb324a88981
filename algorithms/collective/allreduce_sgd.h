// allreduce_sgd: synchronous data-parallel SGD with an uncompressed all-reduce (what PyTorch DDP,
// Horovod and NCCL run). Worker i: g_i at x; all-reduce the sum s = sum_i g_i (schedule
// `collective`, values at `value_bits` on the wire); every worker: x <- prox_gamma(x - gamma s/n)
// (heavy-ball: v <- mu v + s/n, x <- prox(x - gamma v)).
// With value_bits 64 its iterates equal the parameter server's `sgd` with fp64 uplink and downlink
// up to the order of the floating-point sum (schedule.h gives each collective's order).
// Bits per iteration (ring): 2(n-1) * value_bits * d, plus a header per message.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_ALLREDUCE_SGD_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_ALLREDUCE_SGD_H_

#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/collective_rule.h"
#include "base/params.h"

namespace commsim {

struct AllReduceSgdConfig final : ConfigBase<AllReduceSgdConfig> {
  CollectiveOptions common;
  double momentum = 0.0;
  void Describe(ParamVisitor& v) override;
};

class AllReduceSgdRule final : public SharedModelRule {
 public:
  using Config = AllReduceSgdConfig;
  explicit AllReduceSgdRule(const AllReduceSgdConfig& config) : momentum_(config.momentum) {}
  std::vector<CollectivePhase> Phases(int64_t dim, const LayerProfile* layers) const override;
  void Input(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
             Eigen::Ref<Eigen::VectorXd> out) override;
  void AllReduced(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& sum) override;
  void EndRound(double step) override;

 private:
  double momentum_;
  Eigen::VectorXd velocity_;  // sized at the first momentum step
  Eigen::VectorXd mean_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_ALLREDUCE_SGD_H_
