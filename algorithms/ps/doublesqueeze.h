// DoubleSqueeze [paper]: error-compensated compression in both directions.
// Worker: v_i = g_i + delta_i; send Q(v_i); delta_i <- v_i - Q(v_i).
// Server: v = delta + mean Q(v_i); send Q(v); delta <- v - Q(v). Everyone: x <- x - gamma Q(v).
// Error feedback needs a contractive compressor (top_k by default); with an unbiased compressor
// whose variance constant C >= 1 (block_ternary) set `contractive_scale` = 1/(1+C): both ends
// then use Q(x) * contractive_scale (a shared hyper-parameter, never sent).
// The workers' delta_i are stored in float with `precision: "float32"` (worker_vectors.h); the
// server's delta stays double.
#ifndef COMMSIM_ALGORITHMS_PS_DOUBLESQUEEZE_H_
#define COMMSIM_ALGORITHMS_PS_DOUBLESQUEEZE_H_

#include <memory>
#include <string>
#include <vector>

#include "algorithms/ps/replicas.h"
#include "algorithms/ps/two_way_rule.h"
#include "algorithms/ps/worker_vectors.h"
#include "base/params.h"

namespace commsim {

class Objective;

// Links default to top_k (1%) both ways; `precision` stores the workers' delta_i.
struct DoubleSqueezeConfig final : ConfigBase<DoubleSqueezeConfig>, PsStateKeys {
  double contractive_scale = 1.0;

  DoubleSqueezeConfig() : PsStateKeys("top_k", "top_k") {}
  void Describe(ParamVisitor& v) override;
};

class DoubleSqueezeRule final : public TwoWayRule {
 public:
  using Config = DoubleSqueezeConfig;
  explicit DoubleSqueezeRule(const DoubleSqueezeConfig& config);
  void Init(int workers, const ConstVec& x0, const Objective& objective) override;
  Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) override;
  void ServerReceive(int w, const Message& uplink) override;
  // The uplinks added to v in one pass (Compressor::DecodeSumInto).
  void ServerReceiveRun(int w, std::span<const Message* const> uplinks) override;
  Message ServerRound(double step, Rng& rng) override;
  void Extra(std::map<std::string, double>& out) const override;

  // The error memories, read by tests: worker w's delta_w (a copy, in double) and the server's.
  Eigen::VectorXd worker_error(int w) const { return worker_errors_.Get(w); }
  const Eigen::VectorXd& server_error() const { return server_error_; }

 private:
  // Every worker's model equals the server's x bit for bit (same decoded messages, same
  // arithmetic).
  const Eigen::VectorXd& Replicated() const override { return x_; }
  // x <- prox(x - gamma scale Q(v)).
  void ApplyDownlink(const Message& downlink, double step, Eigen::VectorXd& x) override;

  double scale_;
  WorkerVectors worker_errors_;   // delta_i
  Eigen::VectorXd server_error_;  // delta
  Eigen::VectorXd v_;             // the server's v, accumulating the round's
  Eigen::VectorXd* ServerScratch() override { return &v_; }  // v_ is dead between rounds
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_DOUBLESQUEEZE_H_
