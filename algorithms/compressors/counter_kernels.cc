#include "algorithms/compressors/counter_kernels.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "sim/target_clones.h"

namespace commsim::counter_kernels {

namespace {

// The kernels' bodies, for both kinds of draws: u < 2^32 (counter, uint32) or u < 2^53 (the
// stream's draws as exact doubles); kOne is 2^32 or 2^53.
template <class U>
constexpr double kOne = std::is_same_v<U, double> ? 0x1p53 : 0x1p32;

template <class U>
inline void Ternary(const double* __restrict x, const U* __restrict u, int64_t n, double scale,
                    int8_t* __restrict sym) {
  // 64-bit flags and x < 0 (not signbit): the forms gcc vectorises. They agree, as |x| = 0 never
  // keeps.
  for (int64_t k = 0; k < n; ++k) {
    const int64_t keep = static_cast<double>(u[k]) < std::abs(x[k]) * scale;
    const int64_t negative = x[k] < 0;
    sym[k] = static_cast<int8_t>(keep - 2 * (keep & negative));
  }
}

template <class U>
inline void Qsgd(const double* __restrict v, const U* __restrict u, int64_t n, double scale,
                 double s, uint32_t* __restrict xi) {
  for (int64_t k = 0; k < n; ++k) {
    const double a = std::min(std::abs(v[k]) * scale, s);
    const int32_t fl = static_cast<int32_t>(a);  // floor for 0 <= a < 2^31
    const double frac = a - static_cast<double>(fl);
    xi[k] = static_cast<uint32_t>(fl) + (static_cast<double>(u[k]) < frac * kOne<U>);
  }
}

template <class U>
inline void Dithered(const double* __restrict x, const U* __restrict u, int64_t n, double scale,
                     double s, bool subtractive, int32_t* __restrict z) {
  if (subtractive) {
    for (int64_t k = 0; k < n; ++k) {
      const double v =
          std::clamp(x[k] * scale, -s, s) + static_cast<double>(u[k]) * (1.0 / kOne<U>);
      const int32_t t = static_cast<int32_t>(v);
      z[k] = t - static_cast<int32_t>(v < static_cast<double>(t));  // floor
    }
    return;
  }
  for (int64_t k = 0; k < n; ++k) {
    const double v =
        std::min(std::abs(x[k]) * scale, s) + static_cast<double>(u[k]) * (1.0 / kOne<U>);
    const int32_t m = static_cast<int32_t>(v);
    z[k] = x[k] < 0 ? -m : m;
  }
}

}  // namespace

COMMSIM_TARGET_CLONES
void TernarySymbols(const double* x, const uint32_t* u, int64_t n, double scale, int8_t* sym) {
  Ternary(x, u, n, scale, sym);
}
COMMSIM_TARGET_CLONES
void TernarySymbols(const double* x, const double* u, int64_t n, double scale, int8_t* sym) {
  Ternary(x, u, n, scale, sym);
}

COMMSIM_TARGET_CLONES
void QsgdLevels(const double* v, const uint32_t* u, int64_t n, double scale, double s,
                uint32_t* xi) {
  Qsgd(v, u, n, scale, s, xi);
}
COMMSIM_TARGET_CLONES
void QsgdLevels(const double* v, const double* u, int64_t n, double scale, double s, uint32_t* xi) {
  Qsgd(v, u, n, scale, s, xi);
}

COMMSIM_TARGET_CLONES
void DitheredLevels(const double* x, const uint32_t* u, int64_t n, double scale, double s,
                    bool subtractive, int32_t* z) {
  Dithered(x, u, n, scale, s, subtractive, z);
}
COMMSIM_TARGET_CLONES
void DitheredLevels(const double* x, const double* u, int64_t n, double scale, double s,
                    bool subtractive, int32_t* z) {
  Dithered(x, u, n, scale, s, subtractive, z);
}

}  // namespace commsim::counter_kernels
