// Objective: a learning problem split over workers, with losses and gradients on Eigen vectors.
//
// Contract for every implementation:
//   - dim() parameters; the training objective is F(x) = (1/N) sum over all training samples of
//     the per-sample loss + the smooth regulariser (l2), and R(x) = the non-smooth regulariser (l1)
//     handled by Prox(). Worker w's local objective f_w is the same mean over its own shard.
//   - Gradient(w, x, batch, rng, grad): stochastic gradient of f_w at x on a mini-batch of `batch`
//     samples drawn with `rng` (batch <= 0 or >= shard size: the full shard); returns the
//     mini-batch loss. Deterministic given the Rng state.
//   - FiniteGradient(...): the same gradient (bit for bit, same Rng use), without the loss,
//     returning whether every element of grad is finite. The default is Gradient plus a second
//     pass over grad; an objective may check within its own pass (the simulators call this one).
//   - StreamFiniteGradients(streams): FiniteGradient for several workers without storing the
//     gradients, optional (the default declines): each stream's values go to its sink in index
//     order, chunk by chunk, so a consumer (e.g. a worker's fp32 encoder) takes them while they
//     are in cache; the objective may interleave the streams chunk by chunk, so that what they
//     read in common (their point, the problem's data) comes from memory once for all of them.
//   - All methods are const and thread-safe: one Objective is shared by simulations running in
//     parallel threads; scratch memory is per call.
//   - Models that know their layers describe them in layers() (parameters and FLOPs per layer).
//   - Convex objectives that know their optimum return it from optimum() (x*, F(x*) + R(x*)).
#ifndef COMMSIM_MODELS_OBJECTIVE_H_
#define COMMSIM_MODELS_OBJECTIVE_H_

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>

#include "base/rng.h"
#include "models/layer_profile.h"

namespace commsim {

struct Optimum {
  Eigen::VectorXd x;
  double loss = 0.0;  // F(x*) + R(x*)
};

class Objective {
 public:
  virtual ~Objective() = default;
  virtual std::string_view Name() const = 0;
  virtual int64_t dim() const = 0;
  virtual int num_workers() const = 0;
  virtual int64_t shard_size(int worker) const = 0;

  virtual double Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t batch,
                          Rng& rng, Eigen::Ref<Eigen::VectorXd> grad) const = 0;
  virtual bool FiniteGradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t batch,
                              Rng& rng, Eigen::Ref<Eigen::VectorXd> grad) const;
  // Takes the next n values of a vector handed over in order, chunk by chunk.
  using ChunkSink = std::function<void(const double* values, int64_t n)>;
  // Takes the n values x[begin, begin + n) of a vector handed over in chunks in any order.
  using ChunkSinkAt = std::function<void(int64_t begin, const double* values, int64_t n)>;
  // One worker's gradient for StreamFiniteGradients: its FiniteGradient arguments, the sink of
  // its values, and (set by the call) whether every value was finite. The point is x, or, when
  // x32 is set, dim() floats: x_j = double(x32[j]) (e.g. a model broadcast in fp32, read as it
  // came; x is then ignored). The values are bit for bit those at the double point.
  struct GradientStream {
    int worker = 0;
    const Eigen::VectorXd* x = nullptr;
    const float* x32 = nullptr;
    int64_t batch = 0;
    Rng* rng = nullptr;
    ChunkSink sink = {};
    ChunkSinkAt sink_at = {};  // optional: when set, the chunks may come in any order, here
    bool finite = false;
  };
  // For every stream, FiniteGradient's values (bit for bit, the same use of its Rng) handed to
  // its sink in index order in chunks (or, when every stream has a sink_at, to sink_at in any
  // order, each index once), the gradient never stored, and its `finite` set; the streams'
  // chunks may come in any interleaving. Returns false without drawing from any Rng or
  // calling any sink when the objective cannot (the default).
  virtual bool StreamFiniteGradients(std::span<GradientStream> /*streams*/) const { return false; }
  // F(x) + R(x) on the whole training set.
  virtual double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const = 0;
  // Test-set accuracy in [0, 1] for classifiers; nullopt where it does not apply.
  virtual std::optional<double> TestAccuracy(const Eigen::Ref<const Eigen::VectorXd>& x) const {
    (void)x;
    return std::nullopt;
  }
  // True when TestAccuracy gives a value (a classifier with a labelled test set): the problem
  // can be given an accuracy target.
  virtual bool has_test_accuracy() const { return false; }
  virtual const Optimum* optimum() const { return nullptr; }
  // Samples of the held-out test set (0 when the problem has none).
  virtual int64_t test_samples() const { return 0; }
  // Forward + backward floating-point operations per sample (for the compute-time model).
  virtual double flops_per_sample() const = 0;
  // The model's layers for the time model, or nullptr (one layer of dim() parameters). When set:
  // TotalParams() == dim(), x is laid out layer after layer in the profile's order, and
  // flops_per_sample() == ForwardFlopsPerSample() + BackwardFlopsPerSample(). The profile lives
  // as long as the objective.
  virtual const LayerProfile* layers() const { return nullptr; }
  // Initial point x0 (zeros for convex models; seeded initialisation for networks).
  virtual void InitialPoint(Rng& rng, Eigen::Ref<Eigen::VectorXd> x0) const = 0;
  // Worker w's own starting point, for problems whose workers start apart (the consensus
  // problem); nullptr: every worker starts at InitialPoint. Decentralized runs start node w
  // there; the parameter-server and collective families keep one shared model and ignore it.
  virtual const Eigen::VectorXd* WorkerStart(int worker) const {
    (void)worker;
    return nullptr;
  }

  // Non-smooth regulariser R (l1 weight; 0 = none) and its proximal operator:
  // x <- argmin_z R(z) + ||z - x||^2 / (2 step).
  virtual double l1() const { return 0.0; }
  void Prox(double step, Eigen::Ref<Eigen::VectorXd> x) const;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_OBJECTIVE_H_
