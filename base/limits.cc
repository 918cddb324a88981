#include "base/limits.h"

namespace commsim {

void SimLimits::Describe(ParamVisitor& v) {
  v.Int("max_events", max_events, Range::Closed(1, 1e15),
        "events one algorithm entry may simulate before it stops with an error");
  v.Int("max_packets_per_message", max_packets_per_message, Range::Closed(1, 1e12),
        "packets one message may be cut into (message bits / network mtu)");
  v.Int("max_memory", max_memory, Range::Closed(1 << 20, 1e15),
        "bytes a data set may take in memory (16 per value: it is held twice while split), "
        "checked before it is allocated");
}

}  // namespace commsim
