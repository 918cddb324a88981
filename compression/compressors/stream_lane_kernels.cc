#include "compression/compressors/stream_lane_kernels.h"

#include <cstring>

#include "base/rng.h"

namespace commsim::lane_kernels {
namespace {

// One state word of four or eight lanes (gcc/clang vector extension: element-wise integer
// operations; one AVX2 or AVX-512 register).
typedef uint64_t U4 __attribute__((vector_size(32)));
typedef double D4 __attribute__((vector_size(32)));
typedef uint64_t U8 __attribute__((vector_size(64)));
typedef double D8 __attribute__((vector_size(64)));
// The same, at any double's address (one unaligned vector store).
typedef double D4Store __attribute__((vector_size(32), aligned(8), may_alias));
typedef double D8Store __attribute__((vector_size(64), aligned(8), may_alias));
[[gnu::always_inline]] inline void Put(const D4& v, double* out) {
  *reinterpret_cast<D4Store*>(out) = v;
}
[[gnu::always_inline]] inline void Put(const D8& v, double* out) {
  *reinterpret_cast<D8Store*>(out) = v;
}

template <class U>
constexpr int kWidth = static_cast<int>(sizeof(U) / sizeof(uint64_t));

// Every lane's output (NextU64() >> 11) before the next step: rotl(s1 * 5, 7) * 9, the products
// as shifts and adds.
template <class U>
[[gnu::always_inline]] inline void Draws(const U (&s)[4], U& out) {
  const U times5 = s[1] + (s[1] << 2);
  const U rotated = (times5 << 7) | (times5 >> 57);
  out = (rotated + (rotated << 3)) >> 11;
}

// v < 2^53 as a double, exactly, without a 64-bit integer conversion (AVX2 has none): the halves
// placed in the mantissas of 2^84 + hi 2^32 and 2^52 + lo, then (that - (2^84 + 2^52)) + this;
// every step is exact, so this equals the conversion.
template <class U, class D>
[[gnu::always_inline]] inline void ExactDoubles(const U& v, D& out) {
  const U hi = (v >> 32) | 0x4530000000000000ULL;
  const U lo = (v & 0xFFFFFFFFULL) | 0x4330000000000000ULL;
  D h, l;
  std::memcpy(&h, &hi, sizeof(h));
  std::memcpy(&l, &lo, sizeof(l));
  out = (h - 0x1.00000001p84) + l;
}

// The tile r[step][lane] transposed in place (r[lane][step]): rounds of two-vector shuffles.
[[gnu::always_inline]] inline void Transpose(D4 (&r)[4]) {
  D4 s[4];
  for (int k = 0; k < 4; k += 2) {
    s[k] = __builtin_shufflevector(r[k], r[k + 1], 0, 4, 2, 6);
    s[k + 1] = __builtin_shufflevector(r[k], r[k + 1], 1, 5, 3, 7);
  }
  for (int k = 0; k < 2; ++k) {
    r[k] = __builtin_shufflevector(s[k], s[k + 2], 0, 1, 4, 5);
    r[k + 2] = __builtin_shufflevector(s[k], s[k + 2], 2, 3, 6, 7);
  }
}

[[gnu::always_inline]] inline void Transpose(D8 (&r)[8]) {
  D8 s[8], t[8];
  for (int k = 0; k < 8; k += 2) {
    s[k] = __builtin_shufflevector(r[k], r[k + 1], 0, 8, 2, 10, 4, 12, 6, 14);
    s[k + 1] = __builtin_shufflevector(r[k], r[k + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  }
  for (int k : {0, 1, 4, 5}) {
    t[k] = __builtin_shufflevector(s[k], s[k + 2], 0, 1, 8, 9, 4, 5, 12, 13);
    t[k + 2] = __builtin_shufflevector(s[k], s[k + 2], 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int k = 0; k < 4; ++k) {
    r[k] = __builtin_shufflevector(t[k], t[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    r[k + 4] = __builtin_shufflevector(t[k], t[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

template <class U>
[[gnu::always_inline]] inline void Load(const Lanes& lanes, int g, U (&s)[4]) {
  for (int w = 0; w < 4; ++w) std::memcpy(&s[w], lanes[w].data() + g, sizeof(U));
}

template <class U>
[[gnu::always_inline]] inline void Store(const U (&s)[4], int g, Lanes& lanes) {
  for (int w = 0; w < 4; ++w) std::memcpy(lanes[w].data() + g, &s[w], sizeof(U));
}

// Lanes [g, g + width) of GenerateFn: `width` steps go to a tile, which is transposed and
// stored lane by lane. kConvert: the machine's conversion (AVX-512DQ has one) or ExactDoubles.
template <class U, class D, bool kConvert>
[[gnu::always_inline]] inline void GenerateGroup(Lanes& lanes, int g, int64_t steps,
                                                 double* __restrict out) {
  constexpr int kW = kWidth<U>;
  U s[4];
  Load(lanes, g, s);
  for (int64_t i = 0; i < steps; i += kW) {
    D tile[kW];
    for (int k = 0; k < kW; ++k) {
      U draws;
      Draws(s, draws);
      if constexpr (kConvert) {
        tile[k] = __builtin_convertvector(draws, D);
      } else {
        ExactDoubles(draws, tile[k]);
      }
      XoshiroStep(s);
    }
    Transpose(tile);
#pragma GCC unroll 8
    for (int l = 0; l < kW; ++l) Put(tile[l], out + (g + l) * steps + i);
  }
  Store(s, g, lanes);
}

template <class U, class D, bool kConvert>
[[gnu::always_inline]] inline void GenerateAll(Lanes& lanes, int64_t steps,
                                               double* __restrict out) {
  for (int g = 0; g < kLanes; g += kWidth<U>) GenerateGroup<U, D, kConvert>(lanes, g, steps, out);
}

template <class U>
[[gnu::always_inline]] inline void JumpAll(Lanes& lanes, const Poly& q) {
  for (int g = 0; g < kLanes; g += kWidth<U>) {
    U s[4], acc[4] = {};
    Load(lanes, g, s);
    for (uint64_t bits : q) {
      for (int i = 0; i < 64; ++i, bits >>= 1) {
        const U mask = U{} - (bits & 1);
        for (int w = 0; w < 4; ++w) acc[w] ^= s[w] & mask;
        XoshiroStep(s);
      }
    }
    Store(acc, g, lanes);
  }
}

void GeneratePortable(Lanes& lanes, int64_t steps, double* out) {
  GenerateAll<U4, D4, false>(lanes, steps, out);
}
void JumpPortable(Lanes& lanes, const Poly& q) { JumpAll<U4>(lanes, q); }

#ifdef COMMSIM_X86_KERNELS
COMMSIM_TARGET_AVX2 void GenerateAvx2(Lanes& lanes, int64_t steps, double* out) {
  GenerateAll<U4, D4, false>(lanes, steps, out);
}
COMMSIM_TARGET_AVX2 void JumpAvx2(Lanes& lanes, const Poly& q) { JumpAll<U4>(lanes, q); }
COMMSIM_TARGET_AVX512 void GenerateAvx512(Lanes& lanes, int64_t steps, double* out) {
  GenerateAll<U8, D8, true>(lanes, steps, out);
}
COMMSIM_TARGET_AVX512 void JumpAvx512(Lanes& lanes, const Poly& q) { JumpAll<U8>(lanes, q); }
#else
constexpr GenerateFn GenerateAvx2 = nullptr, GenerateAvx512 = nullptr;
constexpr JumpFn JumpAvx2 = nullptr, JumpAvx512 = nullptr;
#endif

}  // namespace

const KernelVersions<GenerateFn>& Generate() {
  static const KernelVersions<GenerateFn> versions{GenerateAvx512, GenerateAvx2, GeneratePortable};
  return versions;
}

const KernelVersions<JumpFn>& Jump() {
  static const KernelVersions<JumpFn> versions{JumpAvx512, JumpAvx2, JumpPortable};
  return versions;
}

}  // namespace commsim::lane_kernels
