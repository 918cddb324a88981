#include "algorithms/compressors/fp32_stores.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "sim/finite.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace commsim {
namespace {

static_assert(std::endian::native == std::endian::little);

// Ordinary stores for i in [begin, end): byte copies, which the compiler vectorises.
template <bool kDecoded>
uint32_t Plain(const double* p, int64_t begin, int64_t end, unsigned char* bytes,
               double* decoded) {
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
// Streaming stores for i in [begin, end), four values at a time. kDecoded: 0 none, 1 decoded
// streamed too, 2 decoded with ordinary (unaligned) stores.
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
    flags = _mm_or_si128(flags,
                         _mm_add_epi32(_mm_and_si128(_mm_castps_si128(v), exponent), carry));
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

template <bool kDecoded>
uint32_t Put(const double* p, int64_t n, unsigned char* bytes, double* decoded, bool stream) {
#if defined(__SSE2__)
  if (stream) {
    const auto misaligned = static_cast<int64_t>(reinterpret_cast<uintptr_t>(bytes) & 15);
    const int64_t begin = std::min(n, ((16 - misaligned) & 15) / 4);
    const int64_t end = begin + (n - begin) / 4 * 4;
    uint32_t bad = Plain<kDecoded>(p, 0, begin, bytes, decoded);
    if constexpr (kDecoded) {
      const bool aligned = (reinterpret_cast<uintptr_t>(decoded + begin) & 15) == 0;
      bad |= aligned ? Streamed<1>(p, begin, end, bytes, decoded)
                     : Streamed<2>(p, begin, end, bytes, decoded);
    } else {
      bad |= Streamed<0>(p, begin, end, bytes, decoded);
    }
    return bad | Plain<kDecoded>(p, end, n, bytes, decoded);
  }
#endif
  (void)stream;
  return Plain<kDecoded>(p, 0, n, bytes, decoded);
}

}  // namespace

uint32_t PutFp32(const double* p, int64_t n, unsigned char* bytes, bool stream) {
  return Put<false>(p, n, bytes, nullptr, stream);
}

uint32_t PutFp32Decoded(const double* p, int64_t n, unsigned char* bytes, double* decoded,
                        bool stream) {
  return Put<true>(p, n, bytes, decoded, stream);
}

}  // namespace commsim
