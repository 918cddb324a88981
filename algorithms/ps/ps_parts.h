// The parts of a parameter-server round: every message of a round is cut into parts, and each
// part is one network message between a worker and one server.
//
// Shards (sharded parameter server, Topology::servers()): the d coordinates are split into S
// contiguous shards in server order; shard s starts at s*q + min(s, r) with q = d / S and
// r = d % S, so the first r shards hold q + 1 coordinates and the others q. Server s owns shard s.
// Buckets (layer-wise overlap, models/buckets.h), in send order: a bucket that crosses a shard
// boundary is cut there into pieces, in offset order, each keeping the bucket's ready fraction.
// Without overlap there is one bucket (the whole vector), so the parts are the shards.
#ifndef COMMSIM_ALGORITHMS_PS_PS_PARTS_H_
#define COMMSIM_ALGORITHMS_PS_PS_PARTS_H_

#include <cstdint>
#include <vector>

#include "algorithms/codec/link_compressor.h"
#include "models/buckets.h"

namespace commsim {

struct PsPart {
  Segment segment;
  double ready_fraction = 1.0;
  int shard = 0;
};

// The S shards of [0, d). REQUIRES: 1 <= shards <= d.
std::vector<Segment> ShardSegments(int64_t d, int shards);

// `buckets` (disjoint, covering [0, d), in send order) cut at the shard boundaries.
// REQUIRES: 1 <= shards <= d.
std::vector<PsPart> SplitAtShards(const std::vector<Bucket>& buckets, int64_t d, int shards);

// A round's parts: the buckets of PlanBuckets(layers, d, bucket_params) when bucket_params > 0
// (layer-wise overlap), else the whole vector, cut at the shards. Throws as PlanBuckets.
std::vector<PsPart> PlanParts(const LayerProfile* layers, int64_t d, int64_t bucket_params,
                              int shards);
// The parts' segments, in the same order.
std::vector<Segment> SegmentsOf(const std::vector<PsPart>& parts);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_PS_PARTS_H_
