#include "algorithms/collective/framework_plan.h"

#include <algorithm>

#include "base/check.h"
#include "models/compute_time.h"

namespace commsim {

int64_t BufferValues(int64_t bytes, int64_t value_bytes) {
  return std::max<int64_t>(1, bytes / value_bytes);
}

std::vector<Bucket> GradientBuckets(const RunSetup& setup, int64_t length, int64_t value_bytes) {
  switch (setup.framework.unit) {
    case FrameworkUnit::kWhole:
      break;
    case FrameworkUnit::kBucket:
      return PlanBuckets(setup.layers, length,
                         BufferValues(setup.framework.bucket_bytes, value_bytes));
    case FrameworkUnit::kTensor:
      return TensorBuckets(setup.layers, length);
  }
  return PlanBuckets(setup.layers, length, setup.compute->config().bucket_params());
}

std::vector<Segment> CompressionParts(const RunSetup& setup, int64_t dim, int64_t value_bytes) {
  COMMSIM_CHECK(setup.framework.unit != FrameworkUnit::kWhole, "parts of a whole message");
  const std::vector<Bucket> buckets = GradientBuckets(setup, dim, value_bytes);
  std::vector<Segment> parts;
  parts.reserve(buckets.size());
  for (const Bucket& b : buckets) parts.push_back({b.offset, b.size});
  return parts;
}

void UseFrameworkParts(const RunSetup& setup, int64_t dim, int64_t value_bytes,
                       CollectiveRule& rule) {
  if (setup.framework.unit != FrameworkUnit::kWhole) {
    rule.SetParts(CompressionParts(setup, dim, value_bytes));
  }
}

SimTime NextTick(SimTime since, SimTime cycle) {
  const int64_t c = cycle.ps();
  if (c == 0) return since;
  return SimTime::FromPs((since.ps() + c - 1) / c * c);
}

}  // namespace commsim
