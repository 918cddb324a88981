// consensus: average consensus as a task. Worker w starts from its own vector a_w and there is
// nothing to learn: every local objective is zero (Gradient 0, Loss 0), so a decentralized run
// only gossips, and its metrics are consensus_dist = (1/n) sum_i ||x_i - x-bar||^2 and
// dist_to_opt_sq = ||x-bar - a-bar||^2 (a-bar = (1/n) sum_w a_w, the optimum x*: how far the
// nodes' average drifted from the starts' average, 0 for exact gossip).
//   a_w    rows x cols values, i.i.d. N(0, 1) from DeriveSeed(seed, w, "consensus start"), laid out
//          column by column (the matrix of the PowerGossip paper's consensus runs: 100 x 100)
//   layers one layer, a rows x cols weight matrix (out = rows), so algorithms that reshape per
//          layer see the matrix
// WorkerStart(w) = a_w; InitialPoint (the shared start of the other families) is 0.
// Memory: (n + 1) rows cols doubles.
#ifndef COMMSIM_MODELS_CONSENSUS_H_
#define COMMSIM_MODELS_CONSENSUS_H_

#include <memory>
#include <string_view>
#include <vector>

#include "base/params.h"
#include "models/model_factory.h"
#include "models/objective.h"

namespace commsim {

struct ConsensusConfig final : ConfigBase<ConsensusConfig> {
  int64_t rows = 100;
  int64_t cols = 100;
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

class Consensus final : public Objective {
 public:
  Consensus(const ConsensusConfig& config, int workers, uint64_t seed);
  std::string_view Name() const override { return "consensus"; }
  int64_t dim() const override { return dim_; }
  int num_workers() const override { return static_cast<int>(starts_.size()); }
  int64_t shard_size(int) const override { return 1; }
  double Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t batch, Rng& rng,
                  Eigen::Ref<Eigen::VectorXd> grad) const override;
  double Loss(const Eigen::Ref<const Eigen::VectorXd>&) const override { return 0.0; }
  const Optimum* optimum() const override { return &optimum_; }
  double flops_per_sample() const override { return 0.0; }
  const LayerProfile* layers() const override { return &profile_; }
  void InitialPoint(Rng&, Eigen::Ref<Eigen::VectorXd> x0) const override { x0.setZero(); }
  const Eigen::VectorXd* WorkerStart(int worker) const override { return &starts_[worker]; }

 private:
  int64_t dim_;
  std::vector<Eigen::VectorXd> starts_;
  Optimum optimum_;
  LayerProfile profile_;
};

class ConsensusFactory final : public ModelFactory {
 public:
  explicit ConsensusFactory(const ConsensusConfig& config) : config_(config) {}
  bool needs_data() const override { return false; }
  std::unique_ptr<Objective> Build(std::shared_ptr<const ProblemData>, int workers,
                                   uint64_t seed) const override {
    return std::make_unique<Consensus>(config_, workers, seed);
  }

 private:
  ConsensusConfig config_;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_CONSENSUS_H_
