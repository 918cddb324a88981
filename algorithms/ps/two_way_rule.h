// TwoWayRule: the state shared by the rules that compress both directions with memories of their
// own (DORE, DoubleSqueeze): the two link compressors, the objective that supplies the proximal
// step (kept by InitModel), the server's model x, which Model() returns, and the workers' copies
// of the vector every worker holds bit for bit (x for DoubleSqueeze, x^ for DORE), stored once
// unless `verify_replicas` (replicas.h).
#ifndef COMMSIM_ALGORITHMS_PS_TWO_WAY_RULE_H_
#define COMMSIM_ALGORITHMS_PS_TWO_WAY_RULE_H_

#include <memory>
#include <string>
#include <utility>

#include "algorithms/ps/ps_keys.h"
#include "algorithms/ps/ps_rule.h"
#include "algorithms/ps/replicas.h"

namespace commsim {

class TwoWayRule : public PsRule {
 public:
  const Eigen::VectorXd& Model() const final { return x_; }
  // Worker w's point: its copy of the replicated vector.
  const Eigen::VectorXd& WorkerPoint(int w) const final { return replicas_.Get(w, Replicated()); }
  // Without verify_replicas the worker's copy is the server's, which ServerRound has updated
  // already. With it, the worker applies the downlink to its own copy (ApplyDownlink), which is
  // then checked against the server's bit for bit.
  void WorkerReceive(int w, const Message& downlink, double step) final {
    if (!replicas_.verify()) return;
    Eigen::VectorXd& replica = replicas_.Own(w);
    ApplyDownlink(downlink, step, replica);
    replicas_.Check(w, Replicated());
  }
  // The workers' copies, for tests (Replicas::CorruptForTest).
  Replicas& replicas_for_test() { return replicas_; }

 protected:
  // Builds both compressors through MakeLink (ps_rule.h), so the driver can make them compress
  // bucket by bucket.
  explicit TwoWayRule(const PsLinkKeys& links)
      : uplink_(MakeLink(links.uplink)),
        downlink_(MakeLink(links.downlink)),
        verify_replicas_(links.verify_replicas) {}
  // The common part of Init: keeps `objective`, sets x = x0 and the workers' copies of the vector
  // that starts at x0 and is named `replicated` in mismatch reports.
  void InitModel(int workers, const ConstVec& x0, const Objective& objective,
                 std::string replicated) {
    objective_ = &objective;
    x_ = x0;
    replicas_.Init(workers, x0, verify_replicas_, std::move(replicated));
  }
  // The server's copy of the vector every worker holds.
  virtual const Eigen::VectorXd& Replicated() const = 0;
  // A worker's update of its own copy from the server's message (verify_replicas only).
  virtual void ApplyDownlink(const Message& downlink, double step, Eigen::VectorXd& replica) = 0;

  std::unique_ptr<Compressor> uplink_;
  std::unique_ptr<Compressor> downlink_;
  const Objective* objective_ = nullptr;
  Eigen::VectorXd x_;  // the server's model
  Replicas replicas_;

 private:
  bool verify_replicas_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_TWO_WAY_RULE_H_
