#include "algorithms/ps/ps_parts.h"

#include <algorithm>

#include "base/check.h"

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

std::vector<PsPart> SplitOverServers(const std::vector<Bucket>& buckets, int servers) {
  COMMSIM_CHECK(servers >= 1, "{} servers", servers);
  std::vector<PsPart> parts;
  for (const Bucket& b : buckets) {
    const int pieces = static_cast<int>(std::min<int64_t>(servers, b.size));
    const std::vector<Segment> piece = ShardSegments(b.size, pieces);
    for (int s = 0; s < pieces; ++s) {
      parts.push_back(PsPart{.segment = {b.offset + piece[s].offset, piece[s].size},
                             .ready_fraction = b.ready_fraction,
                             .shard = s});
    }
  }
  return parts;
}

std::vector<PsPart> PlanParts(const LayerProfile* layers, int64_t d, int64_t bucket_params,
                              int shards, bool per_tensor) {
  if (per_tensor && layers != nullptr) {
    std::vector<Bucket> tensors = TensorBuckets(layers, d);
    if (bucket_params <= 0) {
      for (Bucket& t : tensors) t.ready_fraction = 1.0;
    }
    return SplitOverServers(tensors, shards);
  }
  const std::vector<Bucket> buckets =
      bucket_params > 0
          ? PlanBuckets(layers, d, bucket_params)
          : std::vector<Bucket>{Bucket{.offset = 0, .size = d, .ready_fraction = 1.0}};
  return SplitOverServers(buckets, shards);
}

std::vector<Segment> SegmentsOf(const std::vector<PsPart>& parts) {
  std::vector<Segment> out;
  out.reserve(parts.size());
  for (const PsPart& p : parts) out.push_back(p.segment);
  return out;
}

}  // namespace commsim
