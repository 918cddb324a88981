// PsRule: the mathematics of one parameter-server algorithm, kept apart from timing.
//
// A round, as the driver (ps_driver.h) plays it on the event engine:
//   1. each worker w computes a gradient at WorkerPoint(w) and calls WorkerEncode(w, ...) for
//      its uplink message (updating its own state: shifts, error memories);
//   2. when all uplinks have arrived, ServerRound(...) decodes them, updates the server state and
//      returns the one downlink message sent to every worker;
//   3. each worker applies it on arrival with WorkerApply(w).
// The downlink is decoded once per round (decoding is a pure function of the bits, so every worker
// would decode the same vector); each worker still updates its own replica.
// Contract: deterministic given the Rng streams passed in; messages are real encodings and every
// party uses decoded values only, so replicas agree bit for bit.
#ifndef COMMSIM_ALGORITHMS_PS_PS_RULE_H_
#define COMMSIM_ALGORITHMS_PS_PS_RULE_H_

#include <Eigen/Core>
#include <map>
#include <span>
#include <string>

#include "algorithms/compressors/compressor.h"
#include "sim/rng.h"

namespace commsim {

class Objective;

class PsRule {
 public:
  virtual ~PsRule() = default;
  // Called once before the first round. `objective` supplies the proximal operator.
  virtual void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
                    const Objective& objective) = 0;
  // The point where worker w evaluates its gradient this round.
  virtual const Eigen::VectorXd& WorkerPoint(int w) const = 0;
  virtual Message WorkerEncode(int w, const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
                               Rng& rng) = 0;
  // `uplinks[w]` is worker w's message of this round.
  virtual Message ServerRound(std::span<const Message> uplinks, double step, Rng& rng) = 0;
  // Applies this round's downlink (already decoded once by ServerRound's caller via
  // DecodeDownlink) to worker w.
  virtual void DecodeDownlink(const Message& downlink) = 0;
  virtual void WorkerApply(int w, double step) = 0;
  // The model evaluated for metrics (the server's model).
  virtual const Eigen::VectorXd& Model() const = 0;
  // Algorithm-specific metrics of the last round (e.g. residual norms), for metrics.csv.
  virtual void Extra(std::map<std::string, double>& /*out*/) const {}
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_PS_RULE_H_
