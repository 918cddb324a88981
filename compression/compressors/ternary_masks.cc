#include "compression/compressors/ternary_masks.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>

#include "base/target_clones.h"
#include "compression/compressors/simd_versions.h"

#ifdef COMMSIM_X86_KERNELS
#include <immintrin.h>
#endif

namespace commsim::ternary_masks {
namespace {

// The masks of elements [0, m) of one word, one element at a time (the portable version).
template <class U>
inline void WordMasks(const double* x, const U* u, int m, double scale, uint64_t* keep,
                      uint64_t* neg) {
  uint64_t k = 0, g = 0;
  for (int i = 0; i < m; ++i) {
    const uint64_t kept = static_cast<double>(u[i]) < std::abs(x[i]) * scale;
    k |= kept << i;
    g |= (kept & static_cast<uint64_t>(x[i] < 0)) << i;
  }
  *keep = k;
  *neg = g;
}

template <class U>
void PortableMasks(const double* x, const U* u, int64_t n, double scale, uint64_t* keep,
                   uint64_t* neg) {
  for (int64_t w = 0; 64 * w < n; ++w) {
    const int m = static_cast<int>(std::min<int64_t>(64, n - 64 * w));
    WordMasks(x + 64 * w, u + 64 * w, m, scale, keep + w, neg + w);
  }
}

#ifdef COMMSIM_X86_KERNELS
// AVX-512: eight elements per comparison, straight into a mask register; the short last group
// through masked loads (zeros, which never keep: 0 < 0 is false).
COMMSIM_TARGET_AVX512 void Avx512Masks(const double* x, counter_kernels::ChunkDraws u, int64_t n,
                                       double scale, uint64_t* keep, uint64_t* neg) {
  const __m512d vscale = _mm512_set1_pd(scale);
  for (int64_t w = 0; 64 * w < n; ++w) {
    uint64_t k = 0, g = 0;
    for (int64_t i = 64 * w; i < std::min(n, 64 * w + 64); i += 8) {
      const auto lanes = static_cast<__mmask8>(n - i >= 8 ? 0xFF : (1u << (n - i)) - 1);
      const __m512d v = _mm512_maskz_loadu_pd(lanes, x + i);
      const __m512d draw = u.u32 != nullptr
                               ? _mm512_cvtepu32_pd(_mm256_maskz_loadu_epi32(lanes, u.u32 + i))
                               : _mm512_maskz_loadu_pd(lanes, u.f64 + i);
      const __mmask8 kept =
          _mm512_cmp_pd_mask(draw, _mm512_mul_pd(_mm512_abs_pd(v), vscale), _CMP_LT_OQ);
      const __mmask8 negative = _mm512_cmp_pd_mask(v, _mm512_setzero_pd(), _CMP_LT_OQ);
      k |= static_cast<uint64_t>(kept) << (i - 64 * w);
      g |= static_cast<uint64_t>(kept & negative) << (i - 64 * w);
    }
    keep[w] = k;
    neg[w] = g;
  }
}

// AVX2: four elements per comparison, the flags gathered by movemask (the sign flags too: a kept
// element's sign bit is set exactly when x < 0); the uint32 draws converted exactly as
// (u - 2^31 as int32) + 2^31.
COMMSIM_TARGET_AVX2 inline __m256d Avx2Draws(const uint32_t* u) {
  const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(u));
  const __m128i centred = _mm_xor_si128(raw, _mm_set1_epi32(INT32_MIN));
  return _mm256_add_pd(_mm256_cvtepi32_pd(centred), _mm256_set1_pd(0x1p31));
}
COMMSIM_TARGET_AVX2 inline __m256d Avx2Draws(const double* u) { return _mm256_loadu_pd(u); }

template <class U>
COMMSIM_TARGET_AVX2 void Avx2MasksOf(const double* x, const U* u, int64_t n, double scale,
                                     uint64_t* keep, uint64_t* neg) {
  const __m256d vscale = _mm256_set1_pd(scale);
  const __m256d abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFF));
  int64_t w = 0;
  for (; 64 * w + 64 <= n; ++w) {
    uint64_t k = 0, sign = 0;
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) {
      const int64_t i = 64 * w + 4 * j;
      const __m256d v = _mm256_loadu_pd(x + i);
      const __m256d limit = _mm256_mul_pd(_mm256_and_pd(v, abs_mask), vscale);
      const __m256d kept = _mm256_cmp_pd(Avx2Draws(u + i), limit, _CMP_LT_OQ);
      k |= static_cast<uint64_t>(_mm256_movemask_pd(kept)) << (4 * j);
      sign |= static_cast<uint64_t>(_mm256_movemask_pd(v)) << (4 * j);
    }
    keep[w] = k;
    neg[w] = k & sign;
  }
  if (64 * w < n) {
    WordMasks(x + 64 * w, u + 64 * w, static_cast<int>(n - 64 * w), scale, keep + w, neg + w);
  }
}

COMMSIM_TARGET_AVX2 void Avx2Masks(const double* x, counter_kernels::ChunkDraws u, int64_t n,
                                   double scale, uint64_t* keep, uint64_t* neg) {
  if (u.u32 != nullptr) return Avx2MasksOf(x, u.u32, n, scale, keep, neg);
  Avx2MasksOf(x, u.f64, n, scale, keep, neg);
}
#endif

void Portable(const double* x, counter_kernels::ChunkDraws u, int64_t n, double scale,
              uint64_t* keep, uint64_t* neg) {
  if (u.u32 != nullptr) return PortableMasks(x, u.u32, n, scale, keep, neg);
  PortableMasks(x, u.f64, n, scale, keep, neg);
}

using MasksKernel = void (*)(const double*, counter_kernels::ChunkDraws, int64_t, double, uint64_t*,
                             uint64_t*);

#ifdef COMMSIM_X86_KERNELS
constexpr KernelVersions<MasksKernel> kVersions = {Avx512Masks, Avx2Masks, Portable};
#else
constexpr KernelVersions<MasksKernel> kVersions = {nullptr, nullptr, Portable};
#endif

// kPackedByte[k | (g << 5)]: the packed byte of five symbols whose keep bits are k and neg bits g
// (first symbol in bit 0): sum_i trit_i 3^i with trit = keep + neg (0, +1, -1 -> 0, 1, 2).
constexpr std::array<uint8_t, 1024> MakePackedBytes() {
  std::array<uint8_t, 1024> t{};
  for (unsigned index = 0; index < 1024; ++index) {
    unsigned byte = 0, power = 1;
    for (int i = 0; i < 5; ++i, power *= 3) {
      byte += power * (((index >> i) & 1) + ((index >> (5 + i)) & 1));
    }
    t[index] = static_cast<uint8_t>(byte);
  }
  return t;
}
constexpr std::array<uint8_t, 1024> kPackedByte = MakePackedBytes();

}  // namespace

void DrawMasks(const double* x, counter_kernels::ChunkDraws u, int64_t n, double scale,
               uint64_t* keep, uint64_t* neg) {
  static const MasksKernel kernel = kVersions.Widest();
  kernel(x, u, n, scale, keep, neg);
}

bool DrawMasksWith(SimdVersion version, const double* x, counter_kernels::ChunkDraws u, int64_t n,
                   double scale, uint64_t* keep, uint64_t* neg) {
  const MasksKernel kernel = kVersions.For(version);
  if (kernel != nullptr) kernel(x, u, n, scale, keep, neg);
  return kernel != nullptr;
}

void SymbolMasks(const int8_t* s, int64_t n, uint64_t* keep, uint64_t* neg) {
  for (int64_t w = 0; 64 * w < n; ++w) {
    const int m = static_cast<int>(std::min<int64_t>(64, n - 64 * w));
    uint64_t k = 0, g = 0;
    for (int i = 0; i < m; ++i) {
      k |= static_cast<uint64_t>(s[64 * w + i] != 0) << i;
      g |= static_cast<uint64_t>(s[64 * w + i] < 0) << i;
    }
    keep[w] = k;
    neg[w] = g;
  }
}

// Eight bytes (40 symbols, 5 mask bytes) per write; a 40-symbol group starts on a mask byte.
COMMSIM_TARGET_CLONES
void PutPacked(const uint64_t* keep, const uint64_t* neg, int64_t n, BitWriter& w) {
  const auto* kb = reinterpret_cast<const unsigned char*>(keep);
  const auto* nb = reinterpret_cast<const unsigned char*>(neg);
  const int64_t bytes = (n + 4) / 5;
  for (int64_t g = 0; g < bytes; g += 8) {
    const int m = static_cast<int>(std::min<int64_t>(8, bytes - g));
    uint64_t k40, n40;  // bits 0..39: the group's keep and neg bits (higher bits ignored)
    std::memcpy(&k40, kb + 5 * (g / 8), sizeof(k40));
    std::memcpy(&n40, nb + 5 * (g / 8), sizeof(n40));
    uint64_t word = 0;
    for (int b = 0; b < m; ++b) {
      const unsigned index = ((k40 >> (5 * b)) & 31) | (((n40 >> (5 * b)) & 31) << 5);
      word |= static_cast<uint64_t>(kPackedByte[index]) << (8 * b);
    }
    w.Put(word, 8 * m);
  }
}

}  // namespace commsim::ternary_masks
