// The parts of a parameter-server round: every message of a round is cut into parts, and each
// part is one network message between a worker and one server.
//
// Shards (sharded parameter server, Topology::servers()): every bucket is cut into S contiguous
// pieces, piece s served by server s, as BytePS spreads every tensor over all its servers; a
// piece of a bucket of m values starts at s*q + min(s, r) with q = m / S and r = m % S, so the
// first r pieces hold q + 1 values (a bucket of m < S values goes to servers 0..m-1). Server s
// owns the union of its pieces.
// Buckets (layer-wise overlap, models/buckets.h), in send order; without overlap there is one
// bucket (the whole vector), so the parts are S contiguous shards of the vector. Each piece keeps
// its bucket's ready fraction.
#ifndef COMMSIM_ALGORITHMS_PS_PS_PARTS_H_
#define COMMSIM_ALGORITHMS_PS_PS_PARTS_H_

#include <cstdint>
#include <vector>

#include "compression/codec/link_compressor.h"
#include "models/buckets.h"

namespace commsim {

struct PsPart {
  Segment segment;
  double ready_fraction = 1.0;
  int shard = 0;
};

// The S shards of [0, d). REQUIRES: 1 <= shards <= d.
std::vector<Segment> ShardSegments(int64_t d, int shards);

// Every bucket (disjoint, in send order) cut into its pieces for `servers` servers, bucket
// after bucket. REQUIRES: servers >= 1.
std::vector<PsPart> SplitOverServers(const std::vector<Bucket>& buckets, int servers);

// A round's parts: with `per_tensor` and a layer profile, its tensors (TensorBuckets; ready
// fractions kept only with layer-wise overlap, bucket_params > 0); else the buckets of
// PlanBuckets(layers, d, bucket_params) when bucket_params > 0 (layer-wise overlap), else the
// whole vector; then cut over the servers. Throws as PlanBuckets.
std::vector<PsPart> PlanParts(const LayerProfile* layers, int64_t d, int64_t bucket_params,
                              int shards, bool per_tensor = false);
// The parts' segments, in the same order.
std::vector<Segment> SegmentsOf(const std::vector<PsPart>& parts);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_PS_PARTS_H_
