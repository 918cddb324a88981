#include "algorithms/collective/framework_plan.h"

#include <algorithm>

#include "models/compute_time.h"
#include "sim/check.h"

namespace commsim {
namespace {

// A buffer of `bytes` in values of `value_bytes` (at least one value).
int64_t Values(int64_t bytes, int64_t value_bytes) {
  return std::max<int64_t>(1, bytes / value_bytes);
}

}  // namespace

std::vector<Bucket> GradientBuckets(const RunSetup& setup, int64_t length, int64_t value_bytes,
                                    double mean_compute_s) {
  const FrameworkSetup& f = setup.framework;
  switch (f.unit) {
    case FrameworkUnit::kWhole:
      break;
    case FrameworkUnit::kBucket:
      return PlanBuckets(setup.layers, length, Values(f.bucket_bytes, value_bytes));
    case FrameworkUnit::kTensor:
      return PlanFusedBuckets(setup.layers, length,
                              f.fusion_bytes > 0 ? Values(f.fusion_bytes, value_bytes) : 1,
                              mean_compute_s > 0 ? f.cycle.seconds() / mean_compute_s : 0);
  }
  return PlanBuckets(setup.layers, length, setup.compute->config().bucket_params());
}

std::vector<Segment> CompressionParts(const RunSetup& setup, int64_t dim, int64_t value_bytes) {
  COMMSIM_CHECK(setup.framework.unit != FrameworkUnit::kWhole, "parts of a whole message");
  const std::vector<Bucket> buckets =
      setup.framework.unit == FrameworkUnit::kBucket
          ? PlanBuckets(setup.layers, dim, Values(setup.framework.bucket_bytes, value_bytes))
          : PlanFusedBuckets(setup.layers, dim, 1, 0);
  std::vector<Segment> parts;
  parts.reserve(buckets.size());
  for (const Bucket& b : buckets) parts.push_back({b.offset, b.size});
  return parts;
}

SimTime NextTick(SimTime since, SimTime cycle) {
  const int64_t c = cycle.ps();
  if (c == 0) return since;
  return SimTime::FromPs((since.ps() + c - 1) / c * c);
}

}  // namespace commsim
