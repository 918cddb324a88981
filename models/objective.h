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
//   - StreamFiniteGradient(..., sink): FiniteGradient without storing the gradient, optional (the
//     default declines): its values go to `sink` in index order, chunk by chunk, so a consumer
//     (e.g. a worker's fp32 encoder) takes them while they are in cache.
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
#include <string_view>

#include "models/layer_profile.h"
#include "sim/rng.h"

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
  virtual bool FiniteGradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                              int64_t batch, Rng& rng, Eigen::Ref<Eigen::VectorXd> grad) const;
  // Takes the next n values of a vector handed over in order, chunk by chunk.
  using ChunkSink = std::function<void(const double* values, int64_t n)>;
  // FiniteGradient's values (bit for bit, the same Rng use) handed to `sink` in index order in
  // chunks, the gradient never stored; returns whether every value was finite. Returns nullopt
  // without drawing from `rng` or calling `sink` when the objective cannot (the default).
  virtual std::optional<bool> StreamFiniteGradient(int /*worker*/,
                                                   const Eigen::Ref<const Eigen::VectorXd>& /*x*/,
                                                   int64_t /*batch*/, Rng& /*rng*/,
                                                   const ChunkSink& /*sink*/) const {
    return std::nullopt;
  }
  // F(x) + R(x) on the whole training set.
  virtual double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const = 0;
  // Test-set accuracy in [0, 1] for classifiers; nullopt where it does not apply.
  virtual std::optional<double> TestAccuracy(const Eigen::Ref<const Eigen::VectorXd>& x) const {
    (void)x;
    return std::nullopt;
  }
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

  // Non-smooth regulariser R (l1 weight; 0 = none) and its proximal operator:
  // x <- argmin_z R(z) + ||z - x||^2 / (2 step).
  virtual double l1() const { return 0.0; }
  void Prox(double step, Eigen::Ref<Eigen::VectorXd> x) const;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_OBJECTIVE_H_
