// ModelBroadcastRule: the shared shape of SGD, QSGD, MEM-SGD and DIANA — workers send a
// (compressed) gradient-like message; the server aggregates, updates its model x and sends x
// through the downlink compressor (identity = 32d bits by default); each worker's point is its
// decoded replica of x. The replicas are equal bit for bit (every worker decodes the same
// message), so they are stored once, as the server decodes its own downlink
// (algorithms/ps/replicas.h; `verify_replicas` keeps and checks them all).
// The stored point: x0 (x itself) until the first ServerRound; then the decoded downlink. When
// the downlink is identity at 32 bits (its decoded values: double(float(x_j))), the workers
// stream their gradients (SGD's identity uplink) and verify_replicas is off, the step pass keeps
// them as fp32 words instead (WorkerPoint32: half the memory and traffic of the double replica);
// WorkerPoint then widens them into the double replica on its first call of a round, and from
// the next round on the downlink decodes into the double replica as before (a worker that needs
// the double point once, e.g. an objective that cannot stream, needs it every round).
#ifndef COMMSIM_ALGORITHMS_PS_MODEL_BROADCAST_RULE_H_
#define COMMSIM_ALGORITHMS_PS_MODEL_BROADCAST_RULE_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "algorithms/ps/kept_uplinks.h"
#include "algorithms/ps/ps_keys.h"
#include "algorithms/ps/ps_rule.h"
#include "algorithms/ps/replicas.h"

namespace commsim {

class ModelBroadcastRule : public PsRule {
 public:
  void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
            const Objective& objective) override;
  // Thread-safe (the workers' threads may call it at once; the first call of a round may widen
  // the fp32 point).
  const Eigen::VectorXd& WorkerPoint(int w) const override;
  const float* WorkerPoint32(int w) const override;
  void ServerReceive(int w, const Message& uplink) final;
  // The uplinks added to the sum in one pass (Compressor::DecodeSumInto); all of the round's at
  // once with a mean direction: kept, and decoded in ServerRound's step pass.
  void ServerReceiveRun(int w, std::span<const Message* const> uplinks) final;
  Message ServerRound(double step, Rng& rng) final;
  void WorkerReceive(int w, const Message& downlink, double step) final;
  const Eigen::VectorXd& Model() const override { return x_; }
  // True after a round whose step found x finite in its own pass (the mean-direction rules).
  bool ModelKnownFinite() const override { return model_finite_; }
  // The workers' copies, for tests (Replicas::CorruptForTest).
  Replicas& replicas_for_test() { return replicas_; }

 protected:
  ModelBroadcastRule(const PsLinkKeys& links, double momentum);
  // Per-worker state set-up (called by Init after the common state).
  virtual void InitWorkers(int workers, int64_t dim) = 0;
  // Server: turn the decoded mean of the uplinks into the descent direction g (in place).
  virtual void ServerDirection(Eigen::Ref<Eigen::VectorXd> mean_uplink) = 0;
  // Whether the server applies x <- prox(x - step * direction) (false: x <- x - direction,
  // for methods whose messages already carry the step, like MEM-SGD).
  virtual bool direction_has_step() const { return false; }
  // True when ServerDirection leaves the mean as it is (SGD, QSGD): ServerRound then takes the
  // mean and the step in one pass (without momentum), ServerDirection not called.
  virtual bool direction_is_mean() const { return false; }

  const Compressor& uplink() const { return *uplink_; }
  int workers() const { return workers_; }
  int64_t dim() const { return x_.size(); }

 private:
  std::unique_ptr<Compressor> uplink_;
  std::unique_ptr<Compressor> downlink_;
  double momentum_;
  bool verify_replicas_;
  int workers_ = 0;
  const Objective* objective_ = nullptr;
  Eigen::VectorXd x_;
  Eigen::VectorXd velocity_;  // only with momentum
  Eigen::VectorXd mean_;      // the round's uplink sum; lent as a gradient buffer (ps_rule.h)
  Eigen::VectorXd* ServerScratch() final { return &mean_; }
  // The sum as the decode target of uplink w's values (zeroed for w = 0).
  DecodeTarget SumFrom(int w);
  bool StepsByMean() const;
  bool StepByMean(double step, ChunkEncoder* down, float* point32);
  // The step pass with the downlink encoded chunk by chunk (SGD, QSGD without a prox); nullopt
  // when the downlink cannot (it then still has to be encoded).
  std::optional<Message> StepAndBroadcast(double step);
  // replica_ (sized d) as the downlink's decode target.
  DecodeTarget ReplicaTarget();
  KeptUplinks kept_;           // the round's uplinks, kept by ServerReceiveRun
  bool model_finite_ = false;  // the last ServerRound found x finite
  // Where the workers' point is (without verify_replicas): x_ (x0, before the first round),
  // replica_, or point32_ (replica_ then built on demand).
  enum class Point { kModel, kReplica, kFp32 };
  Point point_ = Point::kModel;
  bool fp32_downlink_;       // identity at 32 bits
  bool fp32_point_ = false;  // the step pass keeps the workers' point in fp32 (see above)
  std::unique_ptr<float[]> point32_;
  mutable Eigen::VectorXd replica_;  // the decoded downlink: every worker's model
  mutable std::mutex widen_mutex_;
  mutable std::atomic<bool> widened_{false};  // replica_ holds point32_'s values this round
  Replicas replicas_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_MODEL_BROADCAST_RULE_H_
