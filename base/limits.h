// Run limits: bounds on the work one simulated run may do (the scenario's `limits` key).
//
// A run that would exceed a limit stops with a SimulationLimitError (base/error.h) that names the
// limit and how to raise it, instead of running until memory or patience ends:
//   max_events               events one engine (one algorithm entry) may run
//   max_packets_per_message  packets one message may be cut into (message bits / mtu)
//   max_memory               bytes a data set loaded from a file (or generated) may take; checked
//                            before the dense matrix is allocated (models/dataset.h)
// The first two are plain counts, the last bytes; the defaults allow every shipped scenario many
// times over.
#ifndef COMMSIM_BASE_LIMITS_H_
#define COMMSIM_BASE_LIMITS_H_

#include <cstdint>

#include "base/params.h"

namespace commsim {

struct SimLimits final : ConfigBase<SimLimits> {
  static constexpr int64_t kDefaultMaxEvents = 10'000'000'000;
  static constexpr int64_t kDefaultMaxPacketsPerMessage = 1'000'000;
  static constexpr int64_t kDefaultMaxMemoryBytes = int64_t{8} << 30;  // 8 GiB

  int64_t max_events = kDefaultMaxEvents;
  int64_t max_packets_per_message = kDefaultMaxPacketsPerMessage;
  int64_t max_memory = kDefaultMaxMemoryBytes;
  void Describe(ParamVisitor& v) override;
};

}  // namespace commsim

#endif  // COMMSIM_BASE_LIMITS_H_
