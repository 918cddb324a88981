// DORE: DOuble REsidual compression [paper structure; defaults recon, see docs/algorithms.md].
// All nodes hold the same x^ (checked bit for bit in tests).
// Worker i: g_i = grad_i(x^); d_i = g_i - h_i; d^_i = Q(d_i); h_i <- h_i + alpha d^_i; send d^_i;
//           on receiving q^: x^ <- x^ + beta q^.
// Server:   d^ = mean d^_i; g^ = h + d^; h <- h + alpha d^; x = prox_gamma R(x^ - gamma g^);
//           q = x - x^ + eta e; q^ = Q(q); e <- q - q^; x^ <- x^ + beta q^; send q^.
// h_i = h = e = 0 at start. Every worker's x^ equals the server's bit for bit, so it is stored
// once (algorithms/ps/replicas.h; `verify_replicas` keeps and checks them all). The shifts h_i
// are stored in float with `precision: "float32"` (algorithms/ps/worker_vectors.h); the server's
// state stays double. Defaults: Q = block_ternary p=inf b=256 both ways, alpha = 0.1,
// beta = 0.5, eta = 0.5. Theory: beta <= 1/(1+C_q); the model-residual loop expands when
// C_q eta^2 >= 1.
#ifndef COMMSIM_ALGORITHMS_PS_DORE_H_
#define COMMSIM_ALGORITHMS_PS_DORE_H_

#include <memory>
#include <string>
#include <vector>

#include "algorithms/ps/kept_uplinks.h"
#include "algorithms/ps/replicas.h"
#include "algorithms/ps/two_way_rule.h"
#include "algorithms/ps/worker_vectors.h"
#include "base/params.h"

namespace commsim {

class Objective;

// Links default to block_ternary (p = inf, b = 256) both ways; `precision` stores the shifts h_i.
struct DoreConfig final : ConfigBase<DoreConfig>, PsStateKeys {
  double alpha = 0.1;
  double beta = 0.5;
  double eta = 0.5;

  DoreConfig() : PsStateKeys("block_ternary", "block_ternary") {}
  void Describe(ParamVisitor& v) override;
};

class DoreRule final : public TwoWayRule {
 public:
  using Config = DoreConfig;
  explicit DoreRule(const DoreConfig& config);
  void Init(int workers, const ConstVec& x0, const Objective& objective) override;
  Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) override;
  // WorkerEncode chunk by chunk (dore.cc): d_i, ||d_i||^2, the encode and h_i's update while each
  // chunk is in cache; the same message, h_i and ||d_i||^2 bit for bit. nullptr (WorkerEncode
  // then) with float32 shifts, without the uplink's ChunkEncodeWithRng, or where this build's
  // Eigen sums squared norms in another order (PairedSquaredNorm, worker_vectors.h).
  std::unique_ptr<ChunkEncoder> WorkerChunkEncoder(int w, Rng& rng) override;
  void ServerReceive(int w, const Message& uplink) override;
  // The uplinks added to the sum in one pass (Compressor::DecodeSumInto); all of the round's at
  // once (more than one): kept, and summed chunk by chunk in ServerRound's first pass.
  void ServerReceiveRun(int w, std::span<const Message* const> uplinks) override;
  Message ServerRound(double step, Rng& rng) override;
  void Extra(std::map<std::string, double>& out) const override;

  // The server's x^ (for the replica invariant) and the other state, read by tests: worker w's
  // shift h_w (a copy, in double), the server's shift h and its model-residual error e.
  const Eigen::VectorXd& server_xhat() const { return xhat_; }
  Eigen::VectorXd shift(int w) const { return worker_shift_.Get(w); }
  const Eigen::VectorXd& server_shift() const { return shift_; }
  const Eigen::VectorXd& error() const { return error_; }

 private:
  const Eigen::VectorXd& Replicated() const override { return xhat_; }
  // x^ += beta q^.
  void ApplyDownlink(const Message& downlink, double step, Eigen::VectorXd& xhat) override;

  double alpha_, beta_, eta_;
  // Workers (their x^ in replicas_: the server's xhat_ unless verifying).
  WorkerVectors worker_shift_;  // h_i
  // Server (and x_, the model).
  Eigen::VectorXd xhat_, shift_, error_;  // x^, h, e
  // The sum of the round's d^_i until ServerRound has used it, then the model residual q; lent
  // to the driver as a gradient buffer in between (ps_rule.h).
  Eigen::VectorXd mean_;
  Eigen::VectorXd* ServerScratch() override { return &mean_; }
  KeptUplinks kept_;  // the round's uplinks, kept by ServerReceiveRun
  // ServerRound's first pass (dore.cc); true when it left the model residual q in mean_ too.
  bool FirstPass(double step);
  // ||d_i||^2 of each worker's last encode (one each: workers encode concurrently, ps_rule.h).
  std::vector<double> grad_residual_sq_of_;
  double grad_residual_sq_ = 0, model_residual_sq_ = 0;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_DORE_H_
