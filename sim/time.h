// Simulated time: a strong type over integer picoseconds (no floating-point time).
//
// int64 picoseconds span +-106 days (kMaxSeconds = 9.22e6 s); one picosecond resolves one bit on
// a 1 Tbit/s link. The arithmetic is checked: a conversion from seconds, a transmit time, a sum,
// a difference or a product that would leave that range throws SimulationLimitError (base/error.h)
// naming the duration, never wraps around. Conversions from seconds round to the nearest
// picosecond. Transmit times are computed with TransmitTime(), which rounds up, so a link is
// never shown faster than its rate.
#ifndef COMMSIM_SIM_TIME_H_
#define COMMSIM_SIM_TIME_H_

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace commsim {

// The longest single duration a config may give (a latency, a compute step): just under the
// int64-picosecond limit, and readable in messages.
inline constexpr double kMaxDurationS = 9.2e6;

namespace internal {
// Throw SimulationLimitError; out of line so the checks cost one branch on the hot path.
[[noreturn]] void ThrowTimeOverflow(const char* operation, double lhs_s, double rhs_s);
[[noreturn]] void ThrowDurationOutOfRange(double seconds);
[[noreturn]] void ThrowTransmitOutOfRange(int64_t bits, double bandwidth_bps);
}  // namespace internal

class SimTime {
 public:
  // The largest representable time, in seconds (int64 max picoseconds: about 106.75 days).
  static constexpr double kMaxSeconds = 9223372.036854775807;

  constexpr SimTime() = default;
  static constexpr SimTime FromPs(int64_t ps) { return SimTime(ps); }
  static constexpr SimTime FromNs(int64_t ns) { return SimTime(ns) * 1000; }
  // Throws SimulationLimitError when |seconds| > kMaxSeconds (after rounding) or not finite.
  static SimTime FromSeconds(double seconds) {
    const double ps = std::nearbyint(seconds * 1e12);
    // 2^63 is exactly representable; every double below it converts without overflow.
    if (!(ps < 9223372036854775808.0 && ps > -9223372036854775808.0)) {
      internal::ThrowDurationOutOfRange(seconds);
    }
    return SimTime(static_cast<int64_t>(ps));
  }
  static constexpr SimTime Zero() { return SimTime(0); }
  static constexpr SimTime Max() { return SimTime(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr SimTime operator+(SimTime o) const {
    int64_t r = 0;
    if (__builtin_add_overflow(ps_, o.ps_, &r)) [[unlikely]] {
      internal::ThrowTimeOverflow("+", seconds(), o.seconds());
    }
    return SimTime(r);
  }
  constexpr SimTime operator-(SimTime o) const {
    int64_t r = 0;
    if (__builtin_sub_overflow(ps_, o.ps_, &r)) [[unlikely]] {
      internal::ThrowTimeOverflow("-", seconds(), o.seconds());
    }
    return SimTime(r);
  }
  constexpr SimTime& operator+=(SimTime o) { return *this = *this + o; }
  constexpr SimTime& operator-=(SimTime o) { return *this = *this - o; }
  constexpr SimTime operator*(int64_t k) const {
    int64_t r = 0;
    if (__builtin_mul_overflow(ps_, k, &r)) [[unlikely]] {
      internal::ThrowTimeOverflow("x", seconds(), static_cast<double>(k));
    }
    return SimTime(r);
  }
  constexpr auto operator<=>(const SimTime&) const = default;

 private:
  constexpr explicit SimTime(int64_t ps) : ps_(ps) {}
  int64_t ps_ = 0;
};

// Time to put `bits` on a wire of `bandwidth_bps`: ceil(bits x 1e12 / bandwidth_bps) picoseconds.
// Exact (integer arithmetic) when the bandwidth is a whole number of bit/s, as every bandwidth
// with a unit (Mbps, Gbps, ...) is; otherwise in double precision. Throws SimulationLimitError
// when that time exceeds SimTime::kMaxSeconds.
// REQUIRES: bits >= 0, bandwidth_bps > 0.
inline SimTime TransmitTime(int64_t bits, double bandwidth_bps) {
  constexpr uint64_t kPsPerS = 1'000'000'000'000;
  const bool whole_bps =
      bandwidth_bps >= 1.0 && bandwidth_bps < 0x1p63 && bandwidth_bps == std::floor(bandwidth_bps);
  if (whole_bps) {
    const auto bw = static_cast<uint64_t>(bandwidth_bps);
    const auto b = static_cast<uint64_t>(bits);
    uint64_t ps = 0;
    if (b <= std::numeric_limits<uint64_t>::max() / kPsPerS) {  // below 1.8e7 bits: 64 bits do
      const uint64_t num = b * kPsPerS;
      ps = num / bw + (num % bw != 0);
    } else {
      __extension__ typedef unsigned __int128 U128;
      const U128 num = static_cast<U128>(b) * kPsPerS;  // < 2^103: no overflow
      const U128 ps128 = num / bw + (num % bw != 0);
      ps = ps128 > std::numeric_limits<uint64_t>::max() ? std::numeric_limits<uint64_t>::max()
                                                        : static_cast<uint64_t>(ps128);
    }
    if (ps > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      internal::ThrowTransmitOutOfRange(bits, bandwidth_bps);
    }
    return SimTime::FromPs(static_cast<int64_t>(ps));
  }
  const double ps = std::ceil(static_cast<double>(bits) * 1e12 / bandwidth_bps - 1e-6);
  if (!(ps < 9223372036854775808.0)) internal::ThrowTransmitOutOfRange(bits, bandwidth_bps);
  return SimTime::FromPs(static_cast<int64_t>(ps));
}

}  // namespace commsim

#endif  // COMMSIM_SIM_TIME_H_
