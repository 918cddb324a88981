// How a framework (algorithms/framework.h) cuts a collective run's gradient, and when its
// background cycle lets a collective start.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_FRAMEWORK_PLAN_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_FRAMEWORK_PLAN_H_

#include <cstdint>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/collective/collective_rule.h"
#include "compression/codec/link_compressor.h"
#include "models/buckets.h"
#include "sim/time.h"

namespace commsim {

// The buckets the gradient's all-reduce of `length` values runs in, in send order: DDP's buckets
// (unit bucket), the tensors (unit tensor: fusion_allreduce.h fuses them), else layer-wise
// overlap's (compute's bucket size). `value_bytes` is the width of a value on the wire (buffer
// sizes are in bytes).
std::vector<Bucket> GradientBuckets(const RunSetup& setup, int64_t length, int64_t value_bytes);
// A buffer of `bytes` in values of `value_bytes` (at least one value).
int64_t BufferValues(int64_t bytes, int64_t value_bytes);

// The parts a compressed message of the `dim`-value gradient is cut into, in send order: every
// tensor (unit tensor, backward order) or every bucket (unit bucket). REQUIRES: unit not whole.
std::vector<Segment> CompressionParts(const RunSetup& setup, int64_t dim, int64_t value_bytes);
// Gives `rule` the framework's parts (CollectiveRule::SetParts) unless the unit is whole; before
// the rule's Phases, which may depend on them.
void UseFrameworkParts(const RunSetup& setup, int64_t dim, int64_t value_bytes,
                       CollectiveRule& rule);

// The first tick of a cycle at or after `since` (both counted from the round's start): the
// smallest multiple of `cycle` >= since; `since` itself when cycle is 0.
SimTime NextTick(SimTime since, SimTime cycle);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_FRAMEWORK_PLAN_H_
