// WorkerGradients: the workers' gradients and first-phase work of a collective round
// (collective_driver.h), computed for all workers at the round's start on RunSetup::threads
// threads (base/thread_pool.h).
//
// Every worker's gradient is taken at the round's model, which changes only in the rule's
// EndRound, with the worker's own batch stream (seed, w, "batch"); so Compute(first) computes
// each worker's gradient, checks it is finite, and runs first(w, grad, scratch): the rule's phase-0
// Input or Encode for worker w (collective_rule.h: those calls for different workers may run at
// the same time). The driver's event for worker w then only takes the result (Take), at the
// simulated time it always had; the results do not depend on the thread count.
// What stays on the driver's thread, in event order: the collectives themselves (each step's
// encode, decode and partial sum: an order-dependent reduction), the rule's AllReduced /
// AllGathered and later phases, and EndRound (a rule may spread its own work over pool(), as
// allgather_compressed's decodes do: CollectiveRule::UsePool).
// Errors: a worker whose gradient has a NaN/Inf gets a NonFiniteError (and no first phase); an
// exception from `first` is kept too; Take(w) rethrows worker w's, at its event.
// A run stopped inside a round (e.g. diverged at one worker's event) evaluates after every
// worker's first phase ran: a rule's per-worker memories (PowerSGD, error feedback) then hold
// this round's input of workers whose event had not come yet; the model does not.
// Memory: per thread one gradient and one scratch vector of `scratch_dim` values.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_WORKER_GRADIENTS_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_WORKER_GRADIENTS_H_

#include <Eigen/Core>
#include <exception>
#include <functional>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/collective/collective_rule.h"
#include "base/rng.h"
#include "base/thread_pool.h"
#include "compression/message.h"

namespace commsim {

class WorkerGradients {
 public:
  // Worker w's first phase on its gradient; `scratch` is the thread's (scratch_dim values,
  // carrying nothing between calls). Returns its message (all-gather) or an empty one.
  using First = std::function<Message(int w, const Eigen::Ref<const Eigen::VectorXd>& grad,
                                      Eigen::Ref<Eigen::VectorXd> scratch)>;
  // Worker w's local step on one of its first LocalSteps() - 1 gradients (the rule's LocalStep).
  using Local = std::function<void(int w, const Eigen::Ref<const Eigen::VectorXd>& grad)>;

  // REQUIRES: setup.objective is set, setup.threads >= 1; `rule` outlives this.
  WorkerGradients(const RunSetup& setup, const CollectiveRule& rule, int64_t scratch_dim);

  // Each worker's LocalSteps() gradients at rule.WorkerPoint(w), the first ones to `local`
  // (needed when LocalSteps() > 1), the last to `first`.
  void Compute(const First& first, const Local& local = nullptr);
  // Worker w's first-phase message (moved out); rethrows worker w's exception.
  Message Take(int w);
  // The pool, free outside Compute (e.g. for the rule's own work, CollectiveRule::UsePool).
  ThreadPool& pool() { return pool_; }

 private:
  struct Result {
    Message message;
    std::exception_ptr error;
  };
  void ComputeOne(int w, int slot, const First& first, const Local& local);

  const RunSetup& setup_;
  const CollectiveRule& rule_;
  std::vector<Rng> batch_rngs_;
  ThreadPool pool_;
  std::vector<Eigen::VectorXd> grads_, scratch_;  // one each per thread
  std::vector<Result> results_;                   // one per worker
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_WORKER_GRADIENTS_H_
