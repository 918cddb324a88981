#include "models/layered_objective.h"

#include <cmath>

#include "base/check.h"

namespace commsim {

void LayeredObjective::SetLayers(const std::vector<std::pair<int64_t, int64_t>>& shapes,
                                 LayerProfile profile) {
  int64_t dim = 0;
  for (const auto& [rows, cols] : shapes) {
    layers_.push_back(WeightLayer{rows, cols, dim});
    dim += rows * cols + rows;
  }
  set_dim(dim);
  profile_ = std::move(profile);
  COMMSIM_CHECK(profile_.TotalParams() == dim, "profile {} vs dim {}", profile_.TotalParams(), dim);
}

double LayeredObjective::flops_per_sample() const {
  return profile_.ForwardFlopsPerSample() + profile_.BackwardFlopsPerSample();
}

void LayeredObjective::InitialPoint(Rng& rng, Eigen::Ref<Eigen::VectorXd> x0) const {
  x0.setZero();
  for (const WeightLayer& layer : layers_) {
    const double stddev = std::sqrt(2.0 / static_cast<double>(layer.cols));
    for (int64_t i = 0; i < layer.rows * layer.cols; ++i) {
      x0[layer.offset + i] = stddev * rng.Normal();
    }
  }
}

}  // namespace commsim
