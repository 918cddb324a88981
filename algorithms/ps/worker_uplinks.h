// WorkerUplinks: the workers' half of a synchronous parameter-server round, computed for all
// workers at once at the round's start, on RunSetup::threads threads.
//
// In a synchronous round every worker's inputs (its point, its state, its Rng streams) are final
// when the round starts, so Compute(step) computes each worker's gradient at
// rule.WorkerPoint(w) and its uplink rule.WorkerEncode(w, ...) right away, in parallel
// (base/thread_pool.h); the driver's events then only take the results (Take), at the simulated
// times they always had. Results do not depend on the thread count: each worker uses its own
// Rng streams ((seed, w, "batch") and (seed, w, "uplink")) and its own rule state, and the rule
// may overwrite the gradient buffer it is given (ps_rule.h says what else it may touch).
// Streaming: a rule with a chunk encoder (PsRule::WorkerChunkEncoder: the gradient as it is, or
// DORE's residual) gets the gradient straight from the objective, chunk by chunk, into the
// message (Streamed): the same message and state without a stored gradient, one pass instead of
// several. The workers then go in one contiguous group
// per thread, each group's gradients streamed together (Objective::StreamFiniteGradients), so an
// objective can read what they share once per group instead of once per worker.
// Memory: one gradient buffer per thread (at most one per worker), not one per worker; the first
// is the rule's ServerScratch when it has one (ps_rule.h), so that rule adds no buffer here.
// Errors: a worker whose gradient has a NaN/Inf gets a NonFiniteError (and no encode); an
// exception from the encode is kept too; Take(w) rethrows worker w's, so the run stops at the
// same event, with the same message, as when the worker computed at its own event.
#ifndef COMMSIM_ALGORITHMS_PS_WORKER_UPLINKS_H_
#define COMMSIM_ALGORITHMS_PS_WORKER_UPLINKS_H_

#include <Eigen/Core>
#include <exception>
#include <memory>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/ps/ps_rule.h"
#include "base/rng.h"
#include "base/thread_pool.h"
#include "models/objective.h"

namespace commsim {

class WorkerUplinks {
 public:
  // REQUIRES: setup.objective is set and setup.threads >= 1; `rule` outlives this.
  WorkerUplinks(const RunSetup& setup, PsRule& rule);

  // Makes the round's chunk encoders (rule.WorkerChunkEncoder), which hold no message storage
  // until they are fed (compressor.h). Call it at the round's start before the previous round's
  // messages are freed: the encoders' small allocations then come from memory that is not the
  // freed messages', so every new uplink fits where an old one was (the peak stays n uplinks
  // and one downlink). Optional: Compute makes them when Prepare did not.
  void Prepare();
  // Every worker's gradient and uplink of the round with step size `step`.
  void Compute(double step);
  // Worker w's uplink of the round (moved out), with the wall seconds its WorkerEncode took
  // (for the measured codec mode); rethrows the exception worker w's computation threw.
  // REQUIRES: Compute ran since worker w's last Take.
  Message Take(int w, double* encode_wall_s);
  // A gradient buffer of dimension objective.dim(), free outside Compute (e.g. for x0 before the
  // first round); Compute overwrites it.
  Eigen::VectorXd& FreeBuffer();

 private:
  struct Result {
    Message uplink;
    double encode_wall_s = 0;
    std::exception_ptr error;
  };
  void ComputeOne(int w, int slot, double step);
  // Workers [begin, end) (thread group `group`)'s gradients streamed into their encoders, the
  // gradients never stored; sets streamed_[w] for each worker done. Not done (also for a value
  // the encoder cannot send): the ordinary path then runs from the same batch and uplink Rng
  // states (the encoders drew from copies), and reports any error.
  void Streamed(int group, int begin, int end);
  // Thread slot's gradient buffer, of dimension objective.dim().
  Eigen::VectorXd& Buffer(int slot);

  const RunSetup& setup_;
  PsRule& rule_;
  std::vector<Rng> batch_rngs_, encode_rngs_;
  // Per worker: the copy of its uplink Rng its chunk encoder draws from (Prepare sets it).
  std::vector<Rng> stream_encode_rngs_;
  ThreadPool pool_;
  std::vector<Eigen::VectorXd> grads_;  // one per thread (the first unused with lent_)
  Eigen::VectorXd* lent_;               // the rule's ServerScratch, or nullptr
  std::vector<Result> results_;         // one per worker
  std::vector<char> streamed_;          // per worker: this round's uplink came from Streamed
  // The round's chunk encoders (one per worker; none: the ordinary path), made by Prepare.
  std::vector<std::unique_ptr<ChunkEncoder>> encoders_;
  bool prepared_ = false;
  // Per thread group, kept from round to round (no allocation while a round's messages are made):
  // its batch Rng copies and its gradient streams.
  std::vector<std::vector<Rng>> group_rngs_;
  std::vector<std::vector<Objective::GradientStream>> group_streams_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_WORKER_UPLINKS_H_
