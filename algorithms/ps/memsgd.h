// MEM-SGD (error feedback) on a parameter server [paper; PS form as used by DoubleSqueeze/DORE].
// Worker: p_i = m_i + gamma g_i; c_i = C(p_i); m_i <- p_i - c_i; send c_i (top_k, 1% of d by
// default). Server: x <- x - mean c_i; send Q_down(x) (identity: 32d). m_i = 0 at start.
// `momentum` mu > 0 adds Deep Gradient Compression's momentum correction and factor masking:
// u_i <- mu u_i + gamma g_i, p_i = m_i + u_i, c_i = C(p_i), m_i <- p_i - c_i, then u_i and m_i
// are set to zero on the coordinates c_i sends (nonzero decoded values).
// The memories m_i (and u_i) are stored in float with `precision: "float32"` (worker_vectors.h).
#ifndef COMMSIM_ALGORITHMS_PS_MEMSGD_H_
#define COMMSIM_ALGORITHMS_PS_MEMSGD_H_

#include <string>
#include <vector>

#include "algorithms/ps/model_broadcast_rule.h"
#include "algorithms/ps/worker_vectors.h"
#include "base/params.h"

namespace commsim {

// Links default to top_k (fraction 0.01) up and identity down; `precision` stores the memories m_i.
struct MemSgdConfig final : ConfigBase<MemSgdConfig>, PsStateKeys {
  double momentum = 0.0;

  MemSgdConfig() : PsStateKeys("top_k", "identity") {}
  void Describe(ParamVisitor& v) override;
  // Deep Gradient Compression: the dgc compressor up, momentum 0.9.
  static void DgcDefaults(MemSgdConfig& c);
};

class MemSgdRule final : public ModelBroadcastRule {
 public:
  using Config = MemSgdConfig;
  explicit MemSgdRule(const MemSgdConfig& config);
  Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) override;
  void Extra(std::map<std::string, double>& out) const override;

  // Worker w's error memory m_w (a copy, in double), read by tests.
  Eigen::VectorXd memory(int w) const { return memory_.Get(w); }

 private:
  void InitWorkers(int workers, int64_t dim) override;
  void ServerDirection(Eigen::Ref<Eigen::VectorXd>) override {}
  bool direction_has_step() const override { return true; }

  double momentum_;
  WorkerVectors memory_;
  WorkerVectors velocity_;  // u_i (momentum > 0)
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_MEMSGD_H_
