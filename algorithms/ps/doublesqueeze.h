// DoubleSqueeze [paper]: error-compensated compression in both directions.
// Worker: v_i = g_i + delta_i; send Q(v_i); delta_i <- v_i - Q(v_i).
// Server: v = delta + mean Q(v_i); send Q(v); delta <- v - Q(v). Everyone: x <- x - gamma Q(v).
// Error feedback needs a contractive compressor (top_k by default); with an unbiased compressor
// whose variance constant C >= 1 (block_ternary) set `contractive_scale` = 1/(1+C): both ends
// then use Q(x) * contractive_scale (a shared hyper-parameter, never sent).
// Options that make the same round other published methods (their registry defaults):
//   momentum mu > 0: the worker compresses its momentum m_i <- mu m_i + g_i (heavy ball) or
//     g_i + mu m_i (`nesterov`) instead of g_i; m_i is never sent (dist-EF-blockSGD, Signum);
//   error_feedback false: no delta_i, no delta: workers send Q(g_i), the server Q(mean)
//     (FO-SGD; Signum, whose server Q = sign of the mean of signs is the majority vote);
//   per_tensor: every tensor of the layer profile is its own message (PsRule::per_tensor).
// The workers' delta_i and m_i are stored in float with `precision: "float32"`
// (worker_vectors.h); the server's delta stays double.
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
  double momentum = 0.0;
  bool nesterov = false;
  bool error_feedback = true;
  bool per_tensor = false;

  DoubleSqueezeConfig() : PsStateKeys("top_k", "top_k") {}
  void Describe(ParamVisitor& v) override;
  // dist-EF-blockSGD: scaled_sign with one block per message both ways, per tensor, Nesterov
  // momentum 0.9, error feedback.
  static void EfBlockSgdDefaults(DoubleSqueezeConfig& c);
  // FO-SGD: the Hadamard rotation then the dithered one-bit quantizer both ways, no error
  // feedback.
  static void FoSgdDefaults(DoubleSqueezeConfig& c);
  // Signum with a majority vote: sign of the momentum up, sign of the mean of the signs down,
  // momentum 0.9, no error feedback.
  static void SignumDefaults(DoubleSqueezeConfig& c);
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
  bool per_tensor() const override { return per_tensor_; }

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
  double momentum_;
  int workers_ = 0;
  bool nesterov_, error_feedback_, per_tensor_;
  WorkerVectors momenta_;         // m_i (momentum > 0)
  WorkerVectors worker_errors_;   // delta_i (error feedback)
  Eigen::VectorXd server_error_;  // delta
  Eigen::VectorXd v_;             // the server's v, accumulating the round's
  Eigen::VectorXd* ServerScratch() override { return &v_; }  // v_ is dead between rounds
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_DOUBLESQUEEZE_H_
