#include "compression/coding/hadamard.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "base/check.h"
#include "base/rng.h"

namespace commsim {
namespace {

// The butterflies that fit in L1 (2048 doubles, 16 KB) are done block by block, so the first
// log2(2048) stages make one pass over memory instead of eleven.
constexpr int64_t kCacheBlock = 2048;

// The butterfly stages of half-width h for h = h_begin, 2 h_begin, ... < h_end over v[0, n):
// (a, b) <- (a + b, a - b) for the pairs (i + j, i + j + h).
void Stages(double* v, int64_t n, int64_t h_begin, int64_t h_end) {
  for (int64_t h = h_begin; h < h_end; h *= 2) {
    for (int64_t i = 0; i < n; i += 2 * h) {
      double* a = v + i;
      double* b = v + i + h;
      for (int64_t j = 0; j < h; ++j) {
        const double x = a[j];
        const double y = b[j];
        a[j] = x + y;
        b[j] = x - y;
      }
    }
  }
}

}  // namespace

int64_t PaddedPowerOfTwo(int64_t d) {
  COMMSIM_CHECK(d <= int64_t{1} << 62, "PaddedPowerOfTwo: {} is too large", d);
  return d <= 1 ? 1 : static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(d)));
}

void NormalizedFwht(double* v, int64_t n) {
  COMMSIM_CHECK(IsPowerOfTwo(n), "NormalizedFwht: n = {} is not a power of two", n);
  const double scale = 1.0 / std::sqrt(static_cast<double>(n));
  for (int64_t j = 0; j < n; ++j) v[j] *= scale;
  const int64_t block = std::min(n, kCacheBlock);
  for (int64_t b = 0; b < n; b += block) Stages(v + b, block, 1, block);
  Stages(v, n, block, n);
}

void ApplyRademacherSigns(uint64_t seed, double* v, int64_t n) {
  Rng rng(seed);
  for (int64_t w = 0; w < n; w += 64) {
    const uint64_t bits = rng.NextU64();
    const int m = static_cast<int>(std::min<int64_t>(64, n - w));
    for (int b = 0; b < m; ++b) {
      const uint64_t flip = ((bits >> b) & 1) << 63;
      v[w + b] = std::bit_cast<double>(std::bit_cast<uint64_t>(v[w + b]) ^ flip);
    }
  }
}

}  // namespace commsim
