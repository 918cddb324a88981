#include "algorithms/compressors/philox_lanes.h"

#include <cstring>

#ifdef COMMSIM_X86_KERNELS
#include <immintrin.h>
#endif

namespace commsim::philox_lanes {
namespace {

constexpr int kBlocks = CounterRng::kChunk / 4;                 // Philox blocks per chunk
constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;    // Philox4x32 multipliers
constexpr uint32_t kBump0 = 0x9E3779B9u, kBump1 = 0xBB67AE85u;  // Weyl key schedule

// Block l of the chunk: counter (l, chunk low, chunk high, 0); word w goes to out[w * 64 + l].
void ChunkPortable(uint64_t key, uint64_t chunk, uint32_t* out) {
  for (int l = 0; l < kBlocks; ++l) {
    uint32_t c[4] = {static_cast<uint32_t>(l), static_cast<uint32_t>(chunk),
                     static_cast<uint32_t>(chunk >> 32), 0};
    uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    for (int r = 0; r < 10; ++r, k0 += kBump0, k1 += kBump1) {
      const uint64_t p0 = uint64_t{kMul0} * c[0], p1 = uint64_t{kMul1} * c[2];
      c[0] = static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0;
      c[2] = static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1;
      c[1] = static_cast<uint32_t>(p1);
      c[3] = static_cast<uint32_t>(p0);
    }
    for (int w = 0; w < 4; ++w) out[w * kBlocks + l] = c[w];
  }
}

#ifdef COMMSIM_X86_KERNELS
// Two groups of four blocks (AVX2) side by side for the multiplies' latency.
COMMSIM_TARGET_AVX2 void ChunkAvx2(uint64_t key, uint64_t chunk, uint32_t* out) {
  const __m256i m0 = _mm256_set1_epi64x(kMul0), m1 = _mm256_set1_epi64x(kMul1);
  const __m256i lo = _mm256_set1_epi64x(static_cast<uint32_t>(chunk));
  const __m256i hi = _mm256_set1_epi64x(static_cast<uint32_t>(chunk >> 32));
  const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);  // the low halves
  for (int l = 0; l < kBlocks; l += 8) {
    __m256i c[2][4];
    for (int g = 0; g < 2; ++g) {
      c[g][0] = _mm256_setr_epi64x(l + 4 * g, l + 4 * g + 1, l + 4 * g + 2, l + 4 * g + 3);
      c[g][1] = lo;
      c[g][2] = hi;
      c[g][3] = _mm256_setzero_si256();
    }
    uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    for (int r = 0; r < 10; ++r, k0 += kBump0, k1 += kBump1) {
      const __m256i key0 = _mm256_set1_epi64x(k0), key1 = _mm256_set1_epi64x(k1);
      for (auto& s : c) {
        const __m256i p0 = _mm256_mul_epu32(s[0], m0), p1 = _mm256_mul_epu32(s[2], m1);
        s[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), s[1]), key0);
        s[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), s[3]), key1);
        s[1] = p1;
        s[3] = p0;
      }
    }
    for (int g = 0; g < 2; ++g) {
      for (int w = 0; w < 4; ++w) {
        const __m256i packed = _mm256_permutevar8x32_epi32(c[g][w], pick);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + w * kBlocks + l + 4 * g),
                         _mm256_castsi256_si128(packed));
      }
    }
  }
}

// Two groups of eight blocks (AVX-512). The zero-masked forms with every lane on: gcc 12's plain
// forms start from an "undefined" vector and warn about it.
constexpr __mmask8 kAll = 0xFF;
COMMSIM_TARGET_AVX512 void ChunkAvx512(uint64_t key, uint64_t chunk, uint32_t* out) {
  const __m512i m0 = _mm512_set1_epi64(kMul0), m1 = _mm512_set1_epi64(kMul1);
  const __m512i lo = _mm512_set1_epi64(static_cast<uint32_t>(chunk));
  const __m512i hi = _mm512_set1_epi64(static_cast<uint32_t>(chunk >> 32));
  const __m512i first = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  for (int l = 0; l < kBlocks; l += 16) {
    __m512i c[2][4];
    for (int g = 0; g < 2; ++g) {
      c[g][0] = _mm512_add_epi64(first, _mm512_set1_epi64(l + 8 * g));
      c[g][1] = lo;
      c[g][2] = hi;
      c[g][3] = _mm512_setzero_si512();
    }
    uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    for (int r = 0; r < 10; ++r, k0 += kBump0, k1 += kBump1) {
      const __m512i key0 = _mm512_set1_epi64(k0), key1 = _mm512_set1_epi64(k1);
      for (auto& s : c) {
        const __m512i p0 = _mm512_maskz_mul_epu32(kAll, s[0], m0),
                      p1 = _mm512_maskz_mul_epu32(kAll, s[2], m1);
        s[0] = _mm512_ternarylogic_epi64(_mm512_maskz_srli_epi64(kAll, p1, 32), s[1], key0, 0x96);
        s[2] = _mm512_ternarylogic_epi64(_mm512_maskz_srli_epi64(kAll, p0, 32), s[3], key1, 0x96);
        s[1] = p1;
        s[3] = p0;
      }
    }
    for (int g = 0; g < 2; ++g) {
      for (int w = 0; w < 4; ++w) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + w * kBlocks + l + 8 * g),
                            _mm512_maskz_cvtepi64_epi32(kAll, c[g][w]));
      }
    }
  }
}
#else
constexpr ChunkFn ChunkAvx2 = nullptr, ChunkAvx512 = nullptr;
#endif

}  // namespace

const KernelVersions<ChunkFn>& Chunk() {
  static const KernelVersions<ChunkFn> versions{ChunkAvx512, ChunkAvx2, ChunkPortable};
  return versions;
}

void FillWindow(uint64_t key, uint64_t first, int64_t n, uint32_t* out) {
  static const ChunkFn chunk_fn = Chunk().Widest();
  constexpr uint64_t kChunk = CounterRng::kChunk;
  const uint64_t c = first / kChunk, offset = first % kChunk;
  if (offset == 0) return chunk_fn(key, c, out);  // n <= kChunk: one chunk holds the window
  alignas(64) uint32_t buf[kChunk];
  chunk_fn(key, c, buf);
  const uint64_t head = kChunk - offset;  // the window's draws in chunk c
  std::memcpy(out, buf + offset, head * sizeof(uint32_t));
  if (static_cast<uint64_t>(n) <= head) return;
  chunk_fn(key, c + 1, buf);
  std::memcpy(out + head, buf, (static_cast<uint64_t>(n) - head) * sizeof(uint32_t));
}

}  // namespace commsim::philox_lanes
