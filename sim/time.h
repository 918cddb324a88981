// Simulated time: a strong type over integer picoseconds (no floating-point time).
//
// int64 picoseconds span +-106 days, far beyond any run; one picosecond resolves one bit on a
// 1 Tbit/s link. Conversions from seconds round to the nearest picosecond. Transmit times are
// computed with TransmitTime(), which rounds up, so a link is never shown faster than its rate.
#ifndef COMMSIM_SIM_TIME_H_
#define COMMSIM_SIM_TIME_H_

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace commsim {

class SimTime {
 public:
  constexpr SimTime() = default;
  static constexpr SimTime FromPs(int64_t ps) { return SimTime(ps); }
  static constexpr SimTime FromNs(int64_t ns) { return SimTime(ns * 1000); }
  static SimTime FromSeconds(double seconds) {
    return SimTime(static_cast<int64_t>(std::llround(seconds * 1e12)));
  }
  static constexpr SimTime Zero() { return SimTime(0); }
  static constexpr SimTime Max() { return SimTime(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr SimTime operator+(SimTime o) const { return SimTime(ps_ + o.ps_); }
  constexpr SimTime operator-(SimTime o) const { return SimTime(ps_ - o.ps_); }
  constexpr SimTime& operator+=(SimTime o) { ps_ += o.ps_; return *this; }
  constexpr SimTime& operator-=(SimTime o) { ps_ -= o.ps_; return *this; }
  constexpr SimTime operator*(int64_t k) const { return SimTime(ps_ * k); }
  constexpr auto operator<=>(const SimTime&) const = default;

 private:
  constexpr explicit SimTime(int64_t ps) : ps_(ps) {}
  int64_t ps_ = 0;
};

// Time to put `bits` on a wire of `bandwidth_bps`, rounded up to the next picosecond.
// REQUIRES: bits >= 0, bandwidth_bps > 0.
inline SimTime TransmitTime(int64_t bits, double bandwidth_bps) {
  return SimTime::FromPs(static_cast<int64_t>(std::ceil(static_cast<double>(bits) * 1e12 / bandwidth_bps - 1e-6)));
}

}  // namespace commsim

#endif  // COMMSIM_SIM_TIME_H_
