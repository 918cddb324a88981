#include "algorithms/ps/ps_parts.h"

#include <algorithm>

#include "sim/check.h"

namespace commsim {

std::vector<Segment> ShardSegments(int64_t d, int shards) {
  COMMSIM_CHECK(shards >= 1 && shards <= d, "{} shards of {} coordinates", shards, d);
  const int64_t q = d / shards;
  const int64_t r = d % shards;
  std::vector<Segment> out;
  out.reserve(static_cast<size_t>(shards));
  for (int64_t s = 0; s < shards; ++s) {
    out.push_back(Segment{.offset = s * q + std::min(s, r), .size = q + (s < r ? 1 : 0)});
  }
  return out;
}

std::vector<PsPart> SplitAtShards(const std::vector<Bucket>& buckets, int64_t d, int shards) {
  const std::vector<Segment> shard = ShardSegments(d, shards);
  std::vector<PsPart> parts;
  for (const Bucket& b : buckets) {
    const int64_t end = b.offset + b.size;
    // The shard holding the bucket's first coordinate, then each shard it reaches.
    auto s = std::upper_bound(shard.begin(), shard.end(), b.offset,
                              [](int64_t x, const Segment& seg) { return x < seg.offset; }) -
             1;
    for (int64_t at = b.offset; at < end; ++s) {
      const int64_t stop = std::min(end, s->offset + s->size);
      parts.push_back(PsPart{.segment = {at, stop - at},
                             .ready_fraction = b.ready_fraction,
                             .shard = static_cast<int>(s - shard.begin())});
      at = stop;
    }
  }
  return parts;
}

std::vector<PsPart> PlanParts(const LayerProfile* layers, int64_t d, int64_t bucket_params,
                              int shards) {
  const std::vector<Bucket> buckets =
      bucket_params > 0
          ? PlanBuckets(layers, d, bucket_params)
          : std::vector<Bucket>{Bucket{.offset = 0, .size = d, .ready_fraction = 1.0}};
  return SplitAtShards(buckets, d, shards);
}

std::vector<Segment> SegmentsOf(const std::vector<PsPart>& parts) {
  std::vector<Segment> out;
  out.reserve(parts.size());
  for (const PsPart& p : parts) out.push_back(p.segment);
  return out;
}

}  // namespace commsim
