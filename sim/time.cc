#include "sim/time.h"

#include <fmt/format.h>

#include "base/error.h"

namespace commsim::internal {

namespace {
constexpr const char* kLimit = "the simulated-time limit of 9.2e6 s (106 days: int64 picoseconds)";
}  // namespace

void ThrowTimeOverflow(const char* operation, double lhs_s, double rhs_s) {
  if (operation[0] == 'x') {
    throw SimulationLimitError(
        fmt::format("{:.3g} s x {:.0f} is beyond {}; shorten the run "
                    "(iterations), its latencies or compute times",
                    lhs_s, rhs_s, kLimit));
  }
  throw SimulationLimitError(fmt::format(
      "simulated time {:.4g} s {} {:.4g} s would pass {}; shorten the run (iterations), its "
      "latencies or compute times, or raise the bandwidth",
      lhs_s, operation, rhs_s, kLimit));
}

void ThrowDurationOutOfRange(double seconds) {
  throw SimulationLimitError(fmt::format("a duration of {:.4g} s is beyond {}", seconds, kLimit));
}

void ThrowTransmitOutOfRange(int64_t bits, double bandwidth_bps) {
  throw SimulationLimitError(fmt::format(
      "{} bits at {:.4g} bit/s take {:.4g} s to transmit, beyond {}; raise the bandwidth", bits,
      bandwidth_bps, static_cast<double>(bits) / bandwidth_bps, kLimit));
}

}  // namespace commsim::internal
