// DIANA on a parameter server [paper].
// Worker: d_i = g_i - h_i; d^_i = Q(d_i); h_i <- h_i + alpha d^_i; send d^_i.
// Server: d^ = mean d^_i; g^ = h + d^; h <- h + alpha d^; (momentum optional)
// x <- prox_gamma R(x - gamma g^); send Q_down(x) (identity: 32d). h_i = h = 0 at start.
// Theory: alpha <= 1/(omega + 1). The shifts h_i are stored in float with `precision: "float32"`
// (algorithms/ps/worker_vectors.h); the server's h stays double.
#ifndef COMMSIM_ALGORITHMS_PS_DIANA_H_
#define COMMSIM_ALGORITHMS_PS_DIANA_H_

#include <string>
#include <vector>

#include "algorithms/ps/model_broadcast_rule.h"
#include "algorithms/ps/worker_vectors.h"
#include "base/params.h"

namespace commsim {

// Links default to block_ternary (p = inf, b = 256) up and identity down; `precision` stores the
// shifts h_i.
struct DianaConfig final : ConfigBase<DianaConfig>, PsStateKeys {
  double alpha = 0.1;
  double momentum = 0.0;

  DianaConfig() : PsStateKeys("block_ternary", "identity") {}
  void Describe(ParamVisitor& v) override;
};

class DianaRule final : public ModelBroadcastRule {
 public:
  using Config = DianaConfig;
  explicit DianaRule(const DianaConfig& config);
  Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) override;
  void Extra(std::map<std::string, double>& out) const override;

  // The shifts, read by tests: worker w's h_w (a copy, in double) and the server's h.
  Eigen::VectorXd shift(int w) const { return shifts_.Get(w); }
  const Eigen::VectorXd& server_shift() const { return server_shift_; }

 private:
  void InitWorkers(int workers, int64_t dim) override;
  void ServerDirection(Eigen::Ref<Eigen::VectorXd> mean_uplink) override;

  double alpha_;
  WorkerVectors shifts_;          // h_i
  Eigen::VectorXd server_shift_;  // h
  // ||d_i||^2 of each worker's last encode (one each: workers encode concurrently, ps_rule.h).
  std::vector<double> residual_sq_of_;
  double residual_sq_ = 0;  // the last completed round's mean of them
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_DIANA_H_
