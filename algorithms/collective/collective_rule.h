// CollectiveRule: the mathematics of one collective algorithm, kept apart from timing.
//
// Every worker holds the model (a rule with local steps keeps one per worker: WorkerPoint). A
// round, as the driver (collective_driver.h) plays it:
//   1. each worker w computes its gradient at WorkerPoint(w) (LocalSteps() of them);
//   2. it runs the rule's phases in order, each a collective over all workers:
//        all-reduce of `length` values: Input(w, p, ...) writes w's contribution; after the
//        collective, AllReduced(w, p, sum) gets the sum over the workers (the same bits on
//        every worker);
//        all-gather: Encode(w, p, ...) returns w's message; after the collective,
//        AllGathered(w, p, messages) gets every worker's message, in worker order;
//      a worker starts phase p + 1 as soon as its phase p is done;
//   3. when every worker is done, EndRound(step) applies the update to the model.
// Because every worker ends every collective with the same bits, the replicas of the model are
// identical: the rule keeps one copy, Model(), which stands for each worker's.
// `grad` is worker w's gradient in the call of phase 0 and empty in later phases; it is valid
// only during the call. Contract: deterministic given the Rng streams passed in; decoded values
// only (what a worker sends, it uses as decoded).
// Threads (RunSetup::threads, worker_gradients.h): the phase-0 calls Input(w, 0, ...) or
// Encode(w, 0, ...) of different workers may run at the same time, at the round's start, so each
// writes only worker w's state and `out`, and reads only those, `grad` and what stays fixed until
// the round's first collective ends (the model, a factor like PowerSGD's Q). Every other call runs
// on the driver's thread, and may spread its own work over the run's threads with the pool given
// to UsePool (ThreadPool::ForEach; results must not depend on the thread count).
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_RULE_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_RULE_H_

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "base/rng.h"
#include "compression/codec/link_compressor.h"
#include "compression/compressors/compressor.h"
#include "compression/message.h"

namespace commsim {

class Objective;
class ThreadPool;
struct LayerProfile;

enum class PhaseKind { kAllReduce, kAllGather };

struct CollectivePhase {
  PhaseKind kind = PhaseKind::kAllReduce;
  int64_t length = 0;  // values (all-reduce); unused for all-gather
  // Phase 0 only: an all-reduce whose Input is laid out as the gradient (length = dim), so with
  // layer-wise overlap the driver all-reduces it bucket by bucket as the backward pass releases
  // the gradients (bucketed_allreduce.h).
  bool gradient = false;
  // Phase 0 only: an all-reduce whose Input is the worker's round-start state, not its gradient
  // (CoCoD-SGD's models): the worker joins it at the round's start, so it runs while the worker
  // computes, and the worker's round ends when both its compute and its phases have.
  bool at_round_start = false;
  // The floating-point operations a worker computes for the rule before it joins the phase, and
  // after it (before the next phase or the step), charged at the compute device's rate on its
  // codec lane (not in codec mode none): PowerSGD's matrix products.
  double flops_before = 0, flops_after = 0;
  // The separate operator calls that work takes (PowerSGD: one per matrix), each costing the
  // framework's codec_call (algorithms/framework.h), in every codec mode.
  int64_t calls_before = 0, calls_after = 0;
};

class CollectiveRule {
 public:
  virtual ~CollectiveRule() = default;
  // Called once before the first round; `layers` is the model's layer profile or nullptr; `seed`
  // the run's seed (for streams the rule derives itself, e.g. shared random matrices).
  virtual void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
                    const Objective& objective, const LayerProfile* layers, uint64_t seed) = 0;
  // The phases of every round on a model of `dim` parameters with layer profile `layers` (or
  // nullptr). A function of the config, dim and layers only: it may be called before Init (a
  // replay reads the phases without initialising the rule's state).
  virtual std::vector<CollectivePhase> Phases(int64_t dim, const LayerProfile* layers) const = 0;
  virtual void Input(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
                     Eigen::Ref<Eigen::VectorXd> out) {
    (void)w, (void)phase, (void)grad, (void)step, (void)out;
  }
  virtual Message Encode(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad,
                         double step, Rng& rng) {
    (void)w, (void)phase, (void)grad, (void)step, (void)rng;
    return {};
  }
  virtual void AllReduced(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& sum) {
    (void)w, (void)phase, (void)sum;
  }
  virtual void AllGathered(int w, int phase, std::span<const SharedMessage> messages) {
    (void)w, (void)phase, (void)messages;
  }
  // A framework's parts (algorithms/framework.h: unit tensor or bucket), set once after Init and
  // before Phases (which may depend on them; a replay sets them without Init):
  // segments of the gradient in send order, each compressed on its own, so an all-gather
  // phase's message carries one `part` per segment (compression/message.h) and the driver
  // all-gathers them one by one. Default: ignored (one message).
  virtual void SetParts(std::vector<Segment> parts) { (void)parts; }
  // The compressed message behind worker w's all-reduce input of `phase` this round, when the
  // phase all-reduces compressed values (allreduce_compressed): the driver charges its encode
  // before the worker joins and one decode of the sum after. Default: none (plain values, whose
  // reduction is fused into the transfer).
  virtual const Message* Coded(int w, int phase) const {
    (void)w, (void)phase;
    return nullptr;
  }
  // The run's thread pool (base/thread_pool.h), set after Init; outlives the rounds. Default:
  // unused.
  virtual void UsePool(ThreadPool& pool) { (void)pool; }
  virtual void EndRound(double step) = 0;
  virtual const Eigen::VectorXd& Model() const = 0;
  // Where worker w takes its gradients. Default: Model() (every worker holds the model).
  virtual const Eigen::VectorXd& WorkerPoint(int w) const {
    (void)w;
    return Model();
  }
  // Gradients a worker computes per round (its compute time is that many samples): the first
  // LocalSteps() - 1 go to LocalStep in turn, the last to the phase-0 Input or Encode. A
  // function of the config only. LocalStep follows Input's threading rules (worker w's state).
  virtual int LocalSteps() const { return 1; }
  virtual void LocalStep(int w, const Eigen::Ref<const Eigen::VectorXd>& grad, double step) {
    (void)w, (void)grad, (void)step;
  }
  virtual void Extra(std::map<std::string, double>& /*out*/) const {}
};

// The stream every worker draws round `round`'s compressor randomness from when the workers share
// it (the same rand_k indices everywhere: allreduce_compressed, allgather_compressed's
// shared_seed).
inline Rng SharedRoundRng(uint64_t seed, int64_t round) {
  return Rng(seed, static_cast<uint64_t>(round), "shared_sparsity");
}

// The state every learning collective rule keeps: the worker count, the objective (for its
// proximal step) and the model x, the same on every worker. Init keeps them (x = x0), then calls
// InitRule for the rule's own state; Model() is x.
class SharedModelRule : public CollectiveRule {
 public:
  void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0, const Objective& objective,
            const LayerProfile* layers, uint64_t seed) final {
    workers_ = workers;
    objective_ = &objective;
    x_ = x0;
    InitRule(layers, seed);
  }
  const Eigen::VectorXd& Model() const final { return x_; }

 protected:
  // The rule's own state (workers_, objective_ and x_ are set). Default: nothing.
  virtual void InitRule(const LayerProfile* layers, uint64_t seed) { (void)layers, (void)seed; }

  int workers_ = 0;
  const Objective* objective_ = nullptr;
  Eigen::VectorXd x_;  // the model
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_RULE_H_
