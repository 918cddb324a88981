// cocod_sgd: CoCoD-SGD (Shen, Xu, Liu, Liang, Cheng, IJCAI 2019), computation and communication
// decoupled. A round is `local_steps` = k local SGD steps. Worker i starts round r from its own
// model x_i (the anchor a_i = x_i) and, at the same time:
//   - all-reduces the anchors: the mean a = (1/n) sum_i a_i (full precision, schedule
//     `collective`), which starts at the round's start and runs while the worker computes;
//   - takes k steps y <- prox(y - gamma g_i(y)) from y = x_i, the last on the last gradient;
// then x_i <- a + (y - a_i): the stale average plus the worker's own progress, and a_i <- x_i.
// x_i = x0 on every worker at the start. A round takes max(k compute, all-reduce) (plus the
// framework's cycles), where synchronous SGD takes k (compute + all-reduce).
// Model() (evaluation) is the workers' mean model after the round. Bits per round (ring):
// 2(n-1) * value_bits * d, as allreduce_sgd's per iteration; an iteration of this rule is a
// round of k local steps.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_COCOD_SGD_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_COCOD_SGD_H_

#include <vector>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/collective_rule.h"
#include "base/params.h"

namespace commsim {

struct CocodSgdConfig final : ConfigBase<CocodSgdConfig> {
  CollectiveOptions common;
  int64_t local_steps = 1;
  void Describe(ParamVisitor& v) override;
};

class CocodSgdRule final : public SharedModelRule {
 public:
  using Config = CocodSgdConfig;
  explicit CocodSgdRule(const CocodSgdConfig& config)
      : local_steps_(static_cast<int>(config.local_steps)) {}
  std::vector<CollectivePhase> Phases(int64_t dim, const LayerProfile* layers) const override;
  const Eigen::VectorXd& WorkerPoint(int w) const override { return models_[Index(w)]; }
  int LocalSteps() const override { return local_steps_; }
  void LocalStep(int w, const Eigen::Ref<const Eigen::VectorXd>& grad, double step) override;
  // The last local step, then the anchor as the all-reduce's input.
  void Input(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
             Eigen::Ref<Eigen::VectorXd> out) override;
  void AllReduced(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& sum) override;
  void EndRound(double step) override;
  void Extra(std::map<std::string, double>& out) const override;

 private:
  void InitRule(const LayerProfile* layers, uint64_t seed) override;
  static size_t Index(int w) { return static_cast<size_t>(w); }

  int local_steps_;
  std::vector<Eigen::VectorXd> models_;   // x_i (y during the round)
  std::vector<Eigen::VectorXd> anchors_;  // a_i: x_i at the round's start
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_COCOD_SGD_H_
