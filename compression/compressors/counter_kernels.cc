#include "compression/compressors/counter_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "base/target_clones.h"

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

// The fixed2 code of one element (Ternary's symbol & 3).
template <class U>
inline uint64_t TernaryCode(double x, U u, double scale) {
  const uint64_t keep = static_cast<double>(u) < std::abs(x) * scale;
  const uint64_t negative = x < 0;
  return keep | ((keep & negative) << 1);
}

template <class U>
inline void Codes(const double* __restrict x, const U* __restrict u, int64_t n, double scale,
                  uint64_t* __restrict words) {
  int64_t w = 0;
  for (; 32 * w + 32 <= n; ++w) {  // whole words: a fixed trip count, vectorised
    uint64_t word = 0;
    for (int k = 0; k < 32; ++k)
      word |= TernaryCode(x[32 * w + k], u[32 * w + k], scale) << (2 * k);
    words[w] = word;
  }
  if (32 * w < n) {
    uint64_t word = 0;
    for (int64_t k = 0; 32 * w + k < n; ++k) {
      word |= TernaryCode(x[32 * w + k], u[32 * w + k], scale) << (2 * k);
    }
    words[w] = word;
  }
}

// One qsgd level: floor(a) + [u < frac(a) kOne], a = min(|v| scale, s).
template <class U>
inline uint32_t Level(double v, U u, double scale, double s) {
  const double a = std::min(std::abs(v) * scale, s);
  const int32_t fl = static_cast<int32_t>(a);  // floor for 0 <= a < 2^31
  const double frac = a - static_cast<double>(fl);
  return static_cast<uint32_t>(fl) + (static_cast<double>(u) < frac * kOne<U>);
}

// A level with its sign bit below it: xi << 1 | [v < 0 and xi > 0].
template <class U>
inline uint32_t SignedLevel(double v, U u, double scale, double s) {
  const uint32_t xi = Level(v, u, scale, s);
  return xi << 1 | static_cast<uint32_t>((v < 0) & (xi != 0));
}

template <class U>
inline void SignedLevels(const double* __restrict v, const U* __restrict u, int64_t n, double scale,
                         double s, uint32_t* __restrict ms) {
  for (int64_t k = 0; k < n; ++k) ms[k] = SignedLevel(v[k], u[k], scale, s);
}

template <class U>
inline void Fields(const double* __restrict v, const U* __restrict u, int64_t n, double scale,
                   double s, const uint64_t* __restrict shift, uint64_t* __restrict g) {
  for (int64_t k = 0; k < n; ++k) {
    g[k] = static_cast<uint64_t>(SignedLevel(v[k], u[k], scale, s)) << shift[k];
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

// Four doubles: accumulators a[0..3] side by side (one AVX2 register, two SSE2 ones).
typedef double Doubles4 __attribute__((vector_size(32)));

typedef uint64_t Bits4 __attribute__((vector_size(32)));

// sum_k |x[k]| (kAbs) or x[k]^2 in the order of SumSquares4's contract.
template <bool kAbs>
inline double Sum4(const double* __restrict x, int64_t n) {
  Doubles4 acc = {0.0, 0.0, 0.0, 0.0};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    Doubles4 v;
    if constexpr (kAbs) {
      Bits4 bits;
      std::memcpy(&bits, x + i, sizeof(bits));
      bits &= 0x7FFFFFFFFFFFFFFFULL;  // |v|: the sign bit cleared
      std::memcpy(&v, &bits, sizeof(v));
      acc += v;
    } else {
      std::memcpy(&v, x + i, sizeof(v));
      acc += v * v;
    }
  }
  for (; i < n; ++i) acc[0] += kAbs ? std::abs(x[i]) : x[i] * x[i];
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

}  // namespace

COMMSIM_TARGET_CLONES
uint64_t MaxAbsBits(const double* x, int64_t n) {
  // Signed 64-bit: the patterns are below 2^63, and AVX2 has a signed compare only.
  int64_t max_bits = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t bits;
    std::memcpy(&bits, x + k, sizeof(bits));
    bits &= 0x7FFFFFFFFFFFFFFFLL;
    max_bits = bits > max_bits ? bits : max_bits;
  }
  return static_cast<uint64_t>(max_bits);
}

COMMSIM_TARGET_CLONES
double SumSquares4(const double* x, int64_t n) { return Sum4<false>(x, n); }

COMMSIM_TARGET_CLONES
double SumAbs4(const double* x, int64_t n) { return Sum4<true>(x, n); }

// Each kernel: its loop on the kind of draws the chunk has.
COMMSIM_TARGET_CLONES
void TernarySymbols(const double* x, ChunkDraws u, int64_t n, double scale, int8_t* sym) {
  if (u.u32 != nullptr) return Ternary(x, u.u32, n, scale, sym);
  Ternary(x, u.f64, n, scale, sym);
}

COMMSIM_TARGET_CLONES
void TernaryCodes(const double* x, ChunkDraws u, int64_t n, double scale, uint64_t* words) {
  if (u.u32 != nullptr) return Codes(x, u.u32, n, scale, words);
  Codes(x, u.f64, n, scale, words);
}

COMMSIM_TARGET_CLONES
void QsgdSignedLevels(const double* v, ChunkDraws u, int64_t n, double scale, double s,
                      uint32_t* ms) {
  if (u.u32 != nullptr) return SignedLevels(v, u.u32, n, scale, s, ms);
  SignedLevels(v, u.f64, n, scale, s, ms);
}

COMMSIM_TARGET_CLONES
void QsgdFields(const double* v, ChunkDraws u, int64_t n, double scale, double s,
                const uint64_t* shift, uint64_t* g) {
  if (u.u32 != nullptr) return Fields(v, u.u32, n, scale, s, shift, g);
  Fields(v, u.f64, n, scale, s, shift, g);
}

COMMSIM_TARGET_CLONES
void DitheredLevels(const double* x, ChunkDraws u, int64_t n, double scale, double s,
                    bool subtractive, int32_t* z) {
  if (u.u32 != nullptr) return Dithered(x, u.u32, n, scale, s, subtractive, z);
  Dithered(x, u.f64, n, scale, s, subtractive, z);
}

}  // namespace commsim::counter_kernels
