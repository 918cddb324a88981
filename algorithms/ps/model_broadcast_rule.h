// ModelBroadcastRule: the shared shape of SGD, QSGD, MEM-SGD and DIANA — workers send a
// (compressed) gradient-like message; the server aggregates, updates its model x and sends x
// through the downlink compressor (identity = 32d bits by default); each worker's point is its
// decoded replica of x. The replicas are equal bit for bit (every worker decodes the same
// message), so they are stored once, as the server decodes its own downlink
// (algorithms/ps/replicas.h; `verify_replicas` keeps and checks them all).
#ifndef COMMSIM_ALGORITHMS_PS_MODEL_BROADCAST_RULE_H_
#define COMMSIM_ALGORITHMS_PS_MODEL_BROADCAST_RULE_H_

#include <memory>
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
  const Eigen::VectorXd& WorkerPoint(int w) const override { return replicas_.Get(w, replica_); }
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

 private:
  std::unique_ptr<Compressor> uplink_;
  std::unique_ptr<Compressor> downlink_;
  double momentum_;
  bool verify_replicas_;
  int workers_ = 0;
  const Objective* objective_ = nullptr;
  Eigen::VectorXd x_;
  Eigen::VectorXd velocity_;  // only with momentum
  Eigen::VectorXd mean_;  // the round's uplink sum; lent as a gradient buffer (ps_rule.h)
  Eigen::VectorXd* ServerScratch() final { return &mean_; }
  // The sum as the decode target of uplink w's values (zeroed for w = 0).
  DecodeTarget SumFrom(int w);
  bool StepsByMean() const;
  bool StepByMean(double step, ChunkEncoder* down);
  KeptUplinks kept_;  // the round's uplinks, kept by ServerReceiveRun
  bool model_finite_ = false;  // the last ServerRound found x finite
  Eigen::VectorXd replica_;  // the decoded downlink: every worker's model
  Replicas replicas_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_MODEL_BROADCAST_RULE_H_
