#include "models/buckets.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/check.h"
#include "sim/error.h"

namespace commsim {

std::vector<Bucket> PlanBuckets(const LayerProfile* layers, int64_t dim, int64_t cap_params) {
  COMMSIM_CHECK(dim >= 1 && cap_params >= 1, "PlanBuckets: d = {}, cap = {}", dim, cap_params);
  LayerProfile one{.name = "", .layers = {Layer{.name = "all", .params = dim}}};
  const LayerProfile& profile = layers != nullptr ? *layers : one;
  if (profile.TotalParams() != dim) {
    throw UserError(fmt::format("layer profile {} has {} parameters but the model has {}",
                                profile.name, profile.TotalParams(), dim));
  }
  const double forward = profile.ForwardFlopsPerSample();
  const double total = forward + profile.BackwardFlopsPerSample();
  std::vector<Bucket> buckets;
  int64_t end = dim;      // the vector above `end` is in closed buckets
  int64_t filled = 0;     // parameters in the open bucket, ending at `end`
  double backward = 0;    // backward FLOPs of the layers visited so far
  double ready = 1.0;
  const auto close = [&] {
    buckets.push_back(Bucket{.offset = end - filled, .size = filled, .ready_fraction = ready});
    end -= filled;
    filled = 0;
  };
  for (int j = static_cast<int>(profile.layers.size()) - 1; j >= 0; --j) {
    const Layer& layer = profile.layers[static_cast<size_t>(j)];
    backward += layer.backward_flops_per_sample;
    ready = total > 0 ? std::min(1.0, (forward + backward) / total) : 1.0;
    for (int64_t left = layer.params; left > 0;) {
      const int64_t take = std::min(left, cap_params - filled);
      filled += take;
      left -= take;
      if (filled == cap_params) close();
    }
  }
  if (filled > 0) close();
  return buckets;
}

SimTime ReadyAfter(SimTime compute, double ready_fraction) {
  if (ready_fraction >= 1.0) return compute;
  return SimTime::FromPs(std::llround(static_cast<double>(compute.ps()) * ready_fraction));
}

}  // namespace commsim
