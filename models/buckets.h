// Gradient buckets for layer-wise overlap (the scenario's compute.overlap = "layerwise").
//
// PyTorch DDP's rule: the backward pass produces gradients layer by layer, last layer first;
// they are put into buckets in that order, each filled up to the cap; a layer larger than the
// room left in a bucket is split: its last parameters finish the bucket and the rest start the
// next one. A bucket is sent as soon as all its gradients are ready.
// The parameter vector is laid out in forward order (models/layer_profile.h), so the buckets are
// contiguous segments taken from the end of the vector backwards: bucket 0 ends at d.
// Ready fraction of a bucket: when, as a fraction of a worker's compute time of the step, its
// gradients are ready = (forward FLOPs of all layers + backward FLOPs of the layers from the last
// down to the bucket's lowest layer) / (forward + backward FLOPs of all layers). The forward pass
// runs whole before any backward. Without FLOPs (or without a profile: one layer of d
// parameters) every bucket is ready at the end of the compute (fraction 1).
// The first-bucket cap of DDP (1 MiB) is not modelled: every bucket has the same cap.
#ifndef COMMSIM_MODELS_BUCKETS_H_
#define COMMSIM_MODELS_BUCKETS_H_

#include <cstdint>
#include <vector>

#include "models/layer_profile.h"
#include "sim/time.h"

namespace commsim {

struct Bucket {
  int64_t offset = 0;  // first parameter (forward layout)
  int64_t size = 0;    // parameters
  double ready_fraction = 1.0;
};

// The buckets in send order. `layers` may be nullptr (one layer of `dim` parameters).
// REQUIRES: dim >= 1, cap_params >= 1. Throws UserError when the profile's parameter total is
// not `dim`.
std::vector<Bucket> PlanBuckets(const LayerProfile* layers, int64_t dim, int64_t cap_params);

// The parameter tensors (Layer::tensors) in backward order, a bucket each, with the ready
// fractions above (the unit of work of a per-tensor framework: algorithms/framework.h).
// REQUIRES and throws: as PlanBuckets.
std::vector<Bucket> TensorBuckets(const LayerProfile* layers, int64_t dim);

// When a bucket with `ready_fraction` is ready, after the start of a step of `compute`: the
// fraction of it, rounded to the nearest picosecond (exactly `compute` for a fraction >= 1).
SimTime ReadyAfter(SimTime compute, double ready_fraction);

}  // namespace commsim

#endif  // COMMSIM_MODELS_BUCKETS_H_
