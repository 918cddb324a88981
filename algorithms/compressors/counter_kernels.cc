#include "algorithms/compressors/counter_kernels.h"

#include <algorithm>
#include <cmath>

#include "sim/target_clones.h"

namespace commsim::counter_kernels {

COMMSIM_TARGET_CLONES
void TernarySymbols(const double* __restrict x, const uint32_t* __restrict u, int64_t n,
                    double scale, int8_t* __restrict sym) {
  // 64-bit flags and x < 0 (not signbit): the forms gcc vectorises. They agree, as |x| = 0 never
  // keeps.
  for (int64_t k = 0; k < n; ++k) {
    const int64_t keep = static_cast<double>(u[k]) < std::abs(x[k]) * scale;
    const int64_t negative = x[k] < 0;
    sym[k] = static_cast<int8_t>(keep - 2 * (keep & negative));
  }
}

COMMSIM_TARGET_CLONES
void QsgdLevels(const double* __restrict v, const uint32_t* __restrict u, int64_t n, double scale,
                double s, uint32_t* __restrict xi) {
  for (int64_t k = 0; k < n; ++k) {
    const double a = std::min(std::abs(v[k]) * scale, s);
    const int32_t fl = static_cast<int32_t>(a);  // floor for 0 <= a < 2^31
    const double frac = a - static_cast<double>(fl);
    xi[k] = static_cast<uint32_t>(fl) + (static_cast<double>(u[k]) < frac * 0x1p32);
  }
}

COMMSIM_TARGET_CLONES
void DitheredLevels(const double* __restrict x, const uint32_t* __restrict u, int64_t n,
                    double scale, double s, bool subtractive, int32_t* __restrict z) {
  if (subtractive) {
    for (int64_t k = 0; k < n; ++k) {
      const double v = std::clamp(x[k] * scale, -s, s) + static_cast<double>(u[k]) * 0x1p-32;
      const int32_t t = static_cast<int32_t>(v);
      z[k] = t - static_cast<int32_t>(v < static_cast<double>(t));  // floor
    }
    return;
  }
  for (int64_t k = 0; k < n; ++k) {
    const double v = std::min(std::abs(x[k]) * scale, s) + static_cast<double>(u[k]) * 0x1p-32;
    const int32_t m = static_cast<int32_t>(v);
    z[k] = x[k] < 0 ? -m : m;
  }
}

}  // namespace commsim::counter_kernels
