// SGD and QSGD on a parameter server [paper].
// Worker: send Q_up(g_i) (identity for `sgd`, qsgd for `qsgd`). Server: g = mean decoded g_i;
// optional heavy-ball v <- mu v + g; x <- prox_gamma R(x - gamma v); send Q_down(x) (identity:
// 32d bits) to every worker.
#ifndef COMMSIM_ALGORITHMS_PS_SGD_H_
#define COMMSIM_ALGORITHMS_PS_SGD_H_

#include "algorithms/ps/model_broadcast_rule.h"
#include "algorithms/ps/ps_keys.h"
#include "base/params.h"

namespace commsim {

// Links default to identity both ways (`qsgd`: qsgd up).
struct SgdConfig final : ConfigBase<SgdConfig>, PsLinkKeys {
  double momentum = 0.0;

  SgdConfig() : PsLinkKeys("identity", "identity") {}
  void Describe(ParamVisitor& v) override;
  static void QsgdDefaults(SgdConfig& c);
};

class SgdRule final : public ModelBroadcastRule {
 public:
  using Config = SgdConfig;
  explicit SgdRule(const SgdConfig& config);
  Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) override;
  // The uplink's own (Compressor::ChunkEncodeWithRng; none with layer-wise buckets).
  std::unique_ptr<ChunkEncoder> WorkerChunkEncoder(int w, Rng& rng) override;

 private:
  void InitWorkers(int, int64_t) override {}
  void ServerDirection(Eigen::Ref<Eigen::VectorXd>) override {}
  bool direction_is_mean() const override { return true; }
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_SGD_H_
