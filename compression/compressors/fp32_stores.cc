#include "compression/compressors/fp32_stores.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "base/finite.h"
#include "compression/compressors/simd_versions.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#ifdef COMMSIM_X86_KERNELS
#include <immintrin.h>
#endif

namespace commsim {
namespace {

static_assert(std::endian::native == std::endian::little);

// Ordinary stores for i in [begin, end): byte copies, which the compiler vectorises.
template <bool kDecoded>
uint32_t Plain(const double* p, int64_t begin, int64_t end, unsigned char* bytes, double* decoded) {
  uint32_t bad = 0;
  for (int64_t i = begin; i < end; ++i) {
    const float f = static_cast<float>(p[i]);
    const uint32_t bits = std::bit_cast<uint32_t>(f);
    bad |= NonFiniteFlag32(bits);
    std::memcpy(bytes + 4 * i, &bits, sizeof bits);
    if constexpr (kDecoded) decoded[i] = static_cast<double>(f);
  }
  return bad;
}

#if defined(__SSE2__)
// Streaming stores for i in [begin, end), four values at a time (SSE2, the x86-64 baseline).
// kDecoded: 0 none, 1 decoded streamed too, 2 decoded with ordinary (unaligned) stores.
// REQUIRES: bytes + 4 begin is 16-byte aligned, end - begin a multiple of 4; kDecoded 1: decoded +
// begin is 16-byte aligned.
template <int kDecoded>
uint32_t Streamed(const double* p, int64_t begin, int64_t end, unsigned char* bytes,
                  double* decoded) {
  const __m128i exponent = _mm_set1_epi32(0x7F800000);
  const __m128i carry = _mm_set1_epi32(0x00800000);
  __m128i flags = _mm_setzero_si128();
  for (int64_t i = begin; i < end; i += 4) {
    const __m128 lo = _mm_cvtpd_ps(_mm_loadu_pd(p + i));
    const __m128 hi = _mm_cvtpd_ps(_mm_loadu_pd(p + i + 2));
    const __m128 v = _mm_movelh_ps(lo, hi);
    flags = _mm_or_si128(flags, _mm_add_epi32(_mm_and_si128(_mm_castps_si128(v), exponent), carry));
    _mm_stream_ps(reinterpret_cast<float*>(bytes + 4 * i), v);
    if constexpr (kDecoded == 1) {
      _mm_stream_pd(decoded + i, _mm_cvtps_pd(lo));
      _mm_stream_pd(decoded + i + 2, _mm_cvtps_pd(hi));
    } else if constexpr (kDecoded == 2) {
      _mm_storeu_pd(decoded + i, _mm_cvtps_pd(lo));
      _mm_storeu_pd(decoded + i + 2, _mm_cvtps_pd(hi));
    }
  }
  _mm_sfence();
  return _mm_movemask_ps(_mm_castsi128_ps(flags)) != 0 ? 0x80000000U : 0U;
}
#endif

#ifdef COMMSIM_X86_KERNELS
// Streamed with eight values a turn (AVX2). REQUIRES: as Streamed, with 32-byte alignment and
// multiples of 8.
template <int kDecoded>
COMMSIM_TARGET_AVX2 uint32_t Streamed8(const double* p, int64_t begin, int64_t end,
                                       unsigned char* bytes, double* decoded) {
  const __m256i exponent = _mm256_set1_epi32(0x7F800000);
  const __m256i carry = _mm256_set1_epi32(0x00800000);
  __m256i flags = _mm256_setzero_si256();
  for (int64_t i = begin; i < end; i += 8) {
    const __m128 lo = _mm256_cvtpd_ps(_mm256_loadu_pd(p + i));
    const __m128 hi = _mm256_cvtpd_ps(_mm256_loadu_pd(p + i + 4));
    const __m256 v = _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
    flags = _mm256_or_si256(
        flags, _mm256_add_epi32(_mm256_and_si256(_mm256_castps_si256(v), exponent), carry));
    _mm256_stream_ps(reinterpret_cast<float*>(bytes + 4 * i), v);
    if constexpr (kDecoded == 1) {
      _mm256_stream_pd(decoded + i, _mm256_cvtps_pd(lo));
      _mm256_stream_pd(decoded + i + 4, _mm256_cvtps_pd(hi));
    } else if constexpr (kDecoded == 2) {
      _mm256_storeu_pd(decoded + i, _mm256_cvtps_pd(lo));
      _mm256_storeu_pd(decoded + i + 4, _mm256_cvtps_pd(hi));
    }
  }
  _mm_sfence();
  return _mm256_movemask_ps(_mm256_castsi256_ps(flags)) != 0 ? 0x80000000U : 0U;
}

// Streamed with sixteen values a turn (AVX-512). REQUIRES: as Streamed, with 64-byte alignment
// and multiples of 16.
template <int kDecoded>
COMMSIM_TARGET_AVX512 uint32_t Streamed16(const double* p, int64_t begin, int64_t end,
                                          unsigned char* bytes, double* decoded) {
  const __m512i exponent = _mm512_set1_epi32(0x7F800000);
  const __m512i carry = _mm512_set1_epi32(0x00800000);
  __m512i flags = _mm512_setzero_si512();
  for (int64_t i = begin; i < end; i += 16) {
    const __m256 lo = _mm512_cvtpd_ps(_mm512_loadu_pd(p + i));
    const __m256 hi = _mm512_cvtpd_ps(_mm512_loadu_pd(p + i + 8));
    const __m512 v = _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
    flags = _mm512_or_si512(
        flags, _mm512_add_epi32(_mm512_and_si512(_mm512_castps_si512(v), exponent), carry));
    _mm512_stream_ps(reinterpret_cast<float*>(bytes + 4 * i), v);
    if constexpr (kDecoded == 1) {
      _mm512_stream_pd(decoded + i, _mm512_cvtps_pd(lo));
      _mm512_stream_pd(decoded + i + 8, _mm512_cvtps_pd(hi));
    } else if constexpr (kDecoded == 2) {
      _mm512_storeu_pd(decoded + i, _mm512_cvtps_pd(lo));
      _mm512_storeu_pd(decoded + i + 8, _mm512_cvtps_pd(hi));
    }
  }
  _mm_sfence();
  return _mm512_movepi32_mask(flags) != 0 ? 0x80000000U : 0U;
}
#endif

// One instruction set's streaming loops, `width` values a turn (the output aligned to 4 * width
// bytes): loops[k] is the loop with kDecoded = k.
struct StreamLoops {
  int64_t width;
  uint32_t (*loops[3])(const double*, int64_t, int64_t, unsigned char*, double*);
};

#if defined(__SSE2__)
constexpr StreamLoops kSse2 = {4, {Streamed<0>, Streamed<1>, Streamed<2>}};
#endif
#ifdef COMMSIM_X86_KERNELS
constexpr StreamLoops kAvx2 = {8, {Streamed8<0>, Streamed8<1>, Streamed8<2>}};
constexpr StreamLoops kAvx512 = {16, {Streamed16<0>, Streamed16<1>, Streamed16<2>}};
constexpr KernelVersions<const StreamLoops*> kVersions = {&kAvx512, &kAvx2, &kSse2};
#elif defined(__SSE2__)
constexpr KernelVersions<const StreamLoops*> kVersions = {nullptr, nullptr, &kSse2};
#else
constexpr KernelVersions<const StreamLoops*> kVersions = {nullptr, nullptr, nullptr};
#endif

// Ordinary stores, or with `loops` (if not null) streaming stores where the output is aligned.
template <bool kDecoded>
uint32_t Put(const double* p, int64_t n, unsigned char* bytes, double* decoded,
             const StreamLoops* loops) {
  if (loops == nullptr) return Plain<kDecoded>(p, 0, n, bytes, decoded);
  const int64_t align = 4 * loops->width;  // bytes
  const auto misaligned = static_cast<int64_t>(reinterpret_cast<uintptr_t>(bytes) % align);
  const int64_t begin = std::min(n, (align - misaligned) % align / 4);
  const int64_t end = begin + (n - begin) / loops->width * loops->width;
  uint32_t bad = Plain<kDecoded>(p, 0, begin, bytes, decoded);
  int kind = 0;
  if constexpr (kDecoded) {
    kind = reinterpret_cast<uintptr_t>(decoded + begin) % align == 0 ? 1 : 2;
  }
  bad |= loops->loops[kind](p, begin, end, bytes, decoded);
  return bad | Plain<kDecoded>(p, end, n, bytes, decoded);
}

// The widest streaming loops the machine runs (null: none), or none when `stream` is false.
const StreamLoops* LoopsFor(bool stream) {
  static const StreamLoops* const widest = kVersions.Widest();
  return stream ? widest : nullptr;
}

}  // namespace

uint32_t PutFp32(const double* p, int64_t n, unsigned char* bytes, bool stream) {
  return Put<false>(p, n, bytes, nullptr, LoopsFor(stream));
}

uint32_t PutFp32Decoded(const double* p, int64_t n, unsigned char* bytes, double* decoded,
                        bool stream) {
  return Put<true>(p, n, bytes, decoded, LoopsFor(stream));
}

bool PutFp32With(SimdVersion version, const double* p, int64_t n, unsigned char* bytes,
                 double* decoded, uint32_t* flag) {
  const StreamLoops* loops = kVersions.For(version);
  if (loops == nullptr) return false;
  *flag = decoded != nullptr ? Put<true>(p, n, bytes, decoded, loops)
                             : Put<false>(p, n, bytes, nullptr, loops);
  return true;
}

}  // namespace commsim
