#include "compression/compressors/magnitude_masks.h"

#include <cmath>

#include "base/finite.h"

#ifdef COMMSIM_X86_KERNELS
#include <immintrin.h>
#endif

namespace commsim {
namespace {

uint64_t Portable(const double* p, double guess, uint64_t* flags) {
  uint64_t hits = 0, bad = 0;
  for (int k = 0; k < 64; ++k) {
    bad |= NonFiniteFlag(p[k]);
    hits |= static_cast<uint64_t>(std::abs(p[k]) >= guess) << k;
  }
  *flags |= bad;
  return hits;
}

#ifdef COMMSIM_X86_KERNELS
// |v| as integers is above the largest finite pattern exactly for NaN and Inf.
constexpr int64_t kMaxFinite = 0x7FEFFFFFFFFFFFFF;

COMMSIM_TARGET_AVX512 uint64_t Avx512(const double* p, double guess, uint64_t* flags) {
  const __m512d vguess = _mm512_set1_pd(guess);
  const __m512i abs_mask = _mm512_set1_epi64(0x7FFFFFFFFFFFFFFF);
  const __m512i max_finite = _mm512_set1_epi64(kMaxFinite);
  __mmask8 bad = 0;
  uint64_t hits = 0;
  for (int j = 0; j < 8; ++j) {
    const __m512i bits = _mm512_and_si512(_mm512_loadu_si512(p + 8 * j), abs_mask);
    bad |= _mm512_cmpgt_epi64_mask(bits, max_finite);
    const __mmask8 at_least = _mm512_cmp_pd_mask(_mm512_castsi512_pd(bits), vguess, _CMP_GE_OQ);
    hits |= static_cast<uint64_t>(at_least) << (8 * j);
  }
  *flags |= bad != 0 ? uint64_t{1} << 63 : 0;
  return hits;
}

COMMSIM_TARGET_AVX2 uint64_t Avx2(const double* p, double guess, uint64_t* flags) {
  const __m256d vguess = _mm256_set1_pd(guess);
  const __m256i abs_mask = _mm256_set1_epi64x(0x7FFFFFFFFFFFFFFF);
  const __m256i max_finite = _mm256_set1_epi64x(kMaxFinite);
  __m256i bad = _mm256_setzero_si256();
  uint64_t hits = 0;
#pragma GCC unroll 16
  for (int j = 0; j < 16; ++j) {
    const __m256i bits =
        _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4 * j)), abs_mask);
    bad = _mm256_or_si256(bad, _mm256_cmpgt_epi64(bits, max_finite));
    const __m256d at_least = _mm256_cmp_pd(_mm256_castsi256_pd(bits), vguess, _CMP_GE_OQ);
    hits |= static_cast<uint64_t>(_mm256_movemask_pd(at_least)) << (4 * j);
  }
  *flags |= _mm256_movemask_pd(_mm256_castsi256_pd(bad)) != 0 ? uint64_t{1} << 63 : 0;
  return hits;
}
#endif

using Kernel = uint64_t (*)(const double*, double, uint64_t*);

#ifdef COMMSIM_X86_KERNELS
constexpr KernelVersions<Kernel> kVersions = {Avx512, Avx2, Portable};
#else
constexpr KernelVersions<Kernel> kVersions = {nullptr, nullptr, Portable};
#endif

}  // namespace

uint64_t AtLeastMask64(const double* p, double guess, uint64_t* flags) {
  static const Kernel kernel = kVersions.Widest();
  return kernel(p, guess, flags);
}

bool AtLeastMask64With(SimdVersion version, const double* p, double guess, uint64_t* flags,
                       uint64_t* hits) {
  const Kernel kernel = kVersions.For(version);
  if (kernel != nullptr) *hits = kernel(p, guess, flags);
  return kernel != nullptr;
}

}  // namespace commsim
