// SGD and QSGD on a parameter server [paper].
// Worker: send Q_up(g_i) (identity for `sgd`, qsgd for `qsgd`). Server: g = mean decoded g_i;
// optional heavy-ball v <- mu v + g; x <- prox_gamma R(x - gamma v); send Q_down(x) (identity:
// 32d bits) to every worker.
#ifndef COMMSIM_ALGORITHMS_PS_SGD_H_
#define COMMSIM_ALGORITHMS_PS_SGD_H_

#include "algorithms/ps/model_broadcast_rule.h"
#include "sim/params.h"

namespace commsim {

struct SgdConfig final : ConfigBase<SgdConfig> {
  ComponentSpec uplink;    // default identity (`qsgd`: qsgd)
  ComponentSpec downlink;  // default identity
  double momentum = 0.0;
  bool verify_replicas = false;

  SgdConfig();
  void Describe(ParamVisitor& v) override;
  static void QsgdDefaults(SgdConfig& c);
};

class SgdRule final : public ModelBroadcastRule {
 public:
  using Config = SgdConfig;
  explicit SgdRule(const SgdConfig& config);
  Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) override;

 private:
  void InitWorkers(int, int64_t) override {}
  void ServerDirection(Eigen::Ref<Eigen::VectorXd>) override {}
};

// Describes the `uplink` and `downlink` compressor fields every PS algorithm has.
void DescribeLinks(ParamVisitor& v, ComponentSpec& uplink, ComponentSpec& downlink);
// Describes the `verify_replicas` debug switch of the rules whose workers' copies are stored once
// (algorithms/ps/replicas.h).
void DescribeVerifyReplicas(ParamVisitor& v, bool& verify_replicas);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_SGD_H_
