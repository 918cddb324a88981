// ReplayObjective: the objective a driver sees while it replays a trajectory
// (algorithms/trajectory.h). It reports the real objective's shape (dimension, workers, shard
// sizes, FLOPs, layers), so compute times and gradient buckets come out as in the recorded run,
// but computes nothing: FiniteGradient() leaves the buffer as it is and reports it finite (the
// replay rules never read a gradient: they play the recorded messages), Gradient() writes zeros,
// and the losses are never read (the recorder takes the recorded ones). A replay so costs no pass
// over a d-vector per worker and round (two before: zeros written, then checked).
#ifndef COMMSIM_ALGORITHMS_REPLAY_OBJECTIVE_H_
#define COMMSIM_ALGORITHMS_REPLAY_OBJECTIVE_H_

#include <cmath>

#include "algorithms/algorithm.h"
#include "models/objective.h"

namespace commsim {

class ReplayObjective final : public Objective {
 public:
  // `real` outlives this object.
  explicit ReplayObjective(const Objective& real) : real_(real) {}
  std::string_view Name() const override { return real_.Name(); }
  int64_t dim() const override { return real_.dim(); }
  int num_workers() const override { return real_.num_workers(); }
  int64_t shard_size(int worker) const override { return real_.shard_size(worker); }
  double Gradient(int, const Eigen::Ref<const Eigen::VectorXd>&, int64_t, Rng&,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    grad.setZero();
    return 0.0;
  }
  bool FiniteGradient(int, const Eigen::Ref<const Eigen::VectorXd>&, int64_t, Rng&,
                      Eigen::Ref<Eigen::VectorXd>) const override {
    return true;
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>&) const override { return NAN; }
  double flops_per_sample() const override { return real_.flops_per_sample(); }
  const LayerProfile* layers() const override { return real_.layers(); }
  void InitialPoint(Rng&, Eigen::Ref<Eigen::VectorXd> x0) const override { x0.setZero(); }

 private:
  const Objective& real_;
};

// What a replay runs with: setup with `objective` (a ReplayObjective over setup.objective)
// instead of the real one, recording nothing.
inline RunSetup ReplaySetup(const RunSetup& setup, const ReplayObjective& objective) {
  RunSetup replay = setup;
  replay.objective = &objective;
  replay.record = nullptr;
  return replay;
}

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_REPLAY_OBJECTIVE_H_
