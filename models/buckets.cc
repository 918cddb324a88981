#include "models/buckets.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/check.h"
#include "base/error.h"

namespace commsim {

namespace {

// The profile (one layer of dim parameters when there is none), checked against dim.
LayerProfile ProfileFor(const LayerProfile* layers, int64_t dim) {
  LayerProfile profile =
      layers != nullptr ? *layers
                        : LayerProfile{.name = "", .layers = {Layer{.name = "all", .params = dim}}};
  if (profile.TotalParams() != dim) {
    throw UserError(fmt::format("layer profile {} has {} parameters but the model has {}",
                                profile.name, profile.TotalParams(), dim));
  }
  return profile;
}

// Calls visit(layer, ready fraction) for the layers in backward order.
template <class Visit>
void BackwardOrder(const LayerProfile& profile, Visit visit) {
  const double forward = profile.ForwardFlopsPerSample();
  const double total = forward + profile.BackwardFlopsPerSample();
  double backward = 0;  // backward FLOPs of the layers visited so far
  for (int j = static_cast<int>(profile.layers.size()) - 1; j >= 0; --j) {
    const Layer& layer = profile.layers[static_cast<size_t>(j)];
    backward += layer.backward_flops_per_sample;
    visit(layer, total > 0 ? std::min(1.0, (forward + backward) / total) : 1.0);
  }
}

}  // namespace

std::vector<Bucket> PlanBuckets(const LayerProfile* layers, int64_t dim, int64_t cap_params) {
  COMMSIM_CHECK(dim >= 1 && cap_params >= 1, "PlanBuckets: d = {}, cap = {}", dim, cap_params);
  const LayerProfile profile = ProfileFor(layers, dim);
  std::vector<Bucket> buckets;
  int64_t end = dim;   // the vector above `end` is in closed buckets
  int64_t filled = 0;  // parameters in the open bucket, ending at `end`
  double ready = 1.0;
  const auto close = [&] {
    buckets.push_back(Bucket{.offset = end - filled, .size = filled, .ready_fraction = ready});
    end -= filled;
    filled = 0;
  };
  BackwardOrder(profile, [&](const Layer& layer, double layer_ready) {
    ready = layer_ready;
    for (int64_t left = layer.params; left > 0;) {
      const int64_t take = std::min(left, cap_params - filled);
      filled += take;
      left -= take;
      if (filled == cap_params) close();
    }
  });
  if (filled > 0) close();
  return buckets;
}

std::vector<Bucket> TensorBuckets(const LayerProfile* layers, int64_t dim) {
  COMMSIM_CHECK(dim >= 1, "TensorBuckets: d = {}", dim);
  const LayerProfile profile = ProfileFor(layers, dim);
  std::vector<Bucket> buckets;
  int64_t end = dim;
  BackwardOrder(profile, [&](const Layer& layer, double ready) {
    const std::vector<int64_t> one{layer.params};
    const std::vector<int64_t>& tensors = layer.tensors.empty() ? one : layer.tensors;
    for (auto t = tensors.rbegin(); t != tensors.rend(); ++t) {
      if (*t == 0) continue;
      end -= *t;
      buckets.push_back(Bucket{.offset = end, .size = *t, .ready_fraction = ready});
    }
  });
  return buckets;
}

SimTime ReadyAfter(SimTime compute, double ready_fraction) {
  if (ready_fraction >= 1.0) return compute;
  return SimTime::FromPs(std::llround(static_cast<double>(compute.ps()) * ready_fraction));
}

}  // namespace commsim
