// powersgd: rank-r PowerSGD (Vogels, Karimireddy, Jaggi 2019) with error feedback, on the
// collective family. Per matrix block (powersgd_layout.h), worker i with error memory e_i:
//   M_i = G_i + e_i;  P_i = M_i Q;  all-reduce P = mean_i P_i;  P <- Gram-Schmidt(P) (columns in
//   order; a zero column stays zero);  Q_i = M_i^T P;  all-reduce Q = mean_i Q_i;
//   G^ = P Q^T;  e_i <- M_i - G^;  every worker: x <- prox_gamma(x - gamma G^).
// Vector blocks travel uncompressed inside the P all-reduce and are averaged. `reshape`: square
// (commsim's near-square matrix per layer) or out_by_rest (the paper's: each weight as output
// channels x the rest, biases and norms as vectors). Its matrix products and orthogonalisation
// (PowerSgdFlops) are charged at the compute device's rate on the codec lane when the codec
// mode is not none. Q starts as an
// N(0, 1) matrix from the stream (seed, 0, "powersgd") shared by all workers; warm_start keeps
// the last round's Q as the next starting point, else a fresh one is drawn every round.
// P and Q are all-reduced with the configured collective at value_bits per value, so each worker
// contributes value_bits * rank * (m + k) bits per matrix and value_bits per vector value per
// iteration; on the ring the wire carries 2 (n - 1) times that per iteration (plus headers).
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_POWERSGD_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_POWERSGD_H_

#include <array>
#include <string>
#include <vector>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/collective_rule.h"
#include "algorithms/collective/powersgd_layout.h"
#include "base/params.h"
#include "base/rng.h"

namespace commsim {

struct PowerSgdConfig final : ConfigBase<PowerSgdConfig> {
  CollectiveOptions common;
  int64_t rank = 2;
  bool warm_start = true;
  std::string reshape = "square";  // or "out_by_rest" (powersgd_layout.h)
  void Describe(ParamVisitor& v) override;
};

class PowerSgdRule final : public SharedModelRule {
 public:
  using Config = PowerSgdConfig;
  explicit PowerSgdRule(const PowerSgdConfig& config)
      : rank_(static_cast<int>(config.rank)),
        warm_start_(config.warm_start),
        reshape_(config.reshape == "out_by_rest" ? PowerSgdReshape::kOutByRest
                                                 : PowerSgdReshape::kSquare) {}
  std::vector<CollectivePhase> Phases(int64_t dim, const LayerProfile* layers) const override;
  void Input(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
             Eigen::Ref<Eigen::VectorXd> out) override;
  void AllReduced(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& sum) override;
  void EndRound(double step) override;
  void Extra(std::map<std::string, double>& out) const override;
  const PowerSgdLayout& layout() const { return layout_; }

 private:
  void InitRule(const LayerProfile* layers, uint64_t seed) override;
  void DrawQ();
  void OrthogonalizeP();
  void UpdateError(int w);

  int rank_;
  bool warm_start_;
  PowerSgdReshape reshape_;
  PowerSgdLayout layout_;
  Rng rng_{0};
  Eigen::VectorXd p_, q_;                 // the all-reduced (mean) factors, vectors included in p_
  bool have_p_ = false, have_q_ = false;  // this round's p_/q_ are in
  std::vector<Eigen::VectorXd> m_;        // per worker: padded M_i = G_i + e_i, then e_i
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_POWERSGD_H_
