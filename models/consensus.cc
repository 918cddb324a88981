#include "models/consensus.h"

#include <fmt/format.h>

#include "base/check.h"
#include "base/rng.h"
#include "models/dataset.h"
#include "models/eigen_blocking.h"

namespace commsim {

void ConsensusConfig::Describe(ParamVisitor& v) {
  v.Int("rows", rows, Range::Closed(1, 1 << 20), "rows of each worker's starting matrix");
  v.Int("cols", cols, Range::Closed(1, 1 << 20), "columns of each worker's starting matrix");
}

void ConsensusConfig::Validate(ParamProblems& problems) const {
  if (rows * cols > kMaxModelDim) {
    problems.Add("cols",
                 fmt::format("rows x cols = {} exceeds {} parameters", rows * cols, kMaxModelDim));
  }
}

Consensus::Consensus(const ConsensusConfig& config, int workers, uint64_t seed)
    : dim_(config.rows * config.cols) {
  FixEigenBlocking();  // the products give the same bits on every machine
  COMMSIM_CHECK(workers >= 1, "consensus needs a worker");
  optimum_.x = Eigen::VectorXd::Zero(dim_);
  for (int w = 0; w < workers; ++w) {
    Rng rng(seed, w, "consensus start");
    Eigen::VectorXd& a = starts_.emplace_back(dim_);
    for (int64_t j = 0; j < dim_; ++j) a[j] = rng.Normal();
    optimum_.x += a;
  }
  optimum_.x /= workers;
  profile_.name = "consensus";
  profile_.layers.push_back(
      Layer{.name = "matrix", .params = dim_, .tensors = {dim_}, .out = config.rows});
}

double Consensus::Gradient(int /*worker*/, const Eigen::Ref<const Eigen::VectorXd>& /*x*/,
                           int64_t /*batch*/, Rng& /*rng*/,
                           Eigen::Ref<Eigen::VectorXd> grad) const {
  grad.setZero();
  return 0.0;
}

}  // namespace commsim
