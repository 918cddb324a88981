#include "compression/compressors/philox_lanes.h"

#include <cstring>

// The vector versions share one always-inlined template body over per-instruction-set operations,
// which gcc accepts and clang 14 does not (it checks the vector arguments of the template's calls
// before inlining): clang builds (the sanitizer stage) have the portable version only.
#if defined(COMMSIM_X86_KERNELS) && !defined(__clang__)
#define COMMSIM_PHILOX_VECTORS 1
#include <immintrin.h>
#endif

namespace commsim::philox_lanes {
namespace {

// The portable version is CounterRng's own (its gcc clones vectorise it).
void ChunkPortable(uint64_t key, uint64_t chunk, uint32_t* out) {
  CounterRng(key).FillChunk(chunk, out);
}

#ifdef COMMSIM_PHILOX_VECTORS
constexpr int kBlocks = CounterRng::kChunk / 4;                 // Philox blocks per chunk
constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;    // Philox4x32 multipliers
constexpr uint32_t kBump0 = 0x9E3779B9u, kBump1 = 0xBB67AE85u;  // Weyl key schedule

// The vector operations of one instruction set: a word per 64-bit lane (W lanes).
struct Avx2Ops {
  using V = __m256i;
  static constexpr int kWidth = 4;
  COMMSIM_TARGET_AVX2 static V Set1(uint64_t v) {
    return _mm256_set1_epi64x(static_cast<int64_t>(v));
  }
  COMMSIM_TARGET_AVX2 static V Iota(int first) {
    return _mm256_add_epi64(Set1(first), _mm256_setr_epi64x(0, 1, 2, 3));
  }
  // The low halves' product.
  COMMSIM_TARGET_AVX2 static V Mul(V a, V b) { return _mm256_mul_epu32(a, b); }
  // (p >> 32) ^ a ^ b.
  COMMSIM_TARGET_AVX2 static V HighXor(V p, V a, V b) {
    return _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p, 32), a), b);
  }
  // The low halves to out[0, kWidth).
  COMMSIM_TARGET_AVX2 static void Store(V v, uint32_t* out) {
    const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                     _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, pick)));
  }
};

// The zero-masked forms with every lane on: gcc 12's plain forms start from an "undefined"
// vector and warn about it.
struct Avx512Ops {
  using V = __m512i;
  static constexpr int kWidth = 8;
  static constexpr __mmask8 kAll = 0xFF;
  COMMSIM_TARGET_AVX512 static V Set1(uint64_t v) {
    return _mm512_set1_epi64(static_cast<int64_t>(v));
  }
  COMMSIM_TARGET_AVX512 static V Iota(int first) {
    return _mm512_add_epi64(Set1(first), _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
  }
  COMMSIM_TARGET_AVX512 static V Mul(V a, V b) { return _mm512_maskz_mul_epu32(kAll, a, b); }
  COMMSIM_TARGET_AVX512 static V HighXor(V p, V a, V b) {
    return _mm512_ternarylogic_epi64(_mm512_maskz_srli_epi64(kAll, p, 32), a, b, 0x96);
  }
  COMMSIM_TARGET_AVX512 static void Store(V v, uint32_t* out) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_maskz_cvtepi64_epi32(kAll, v));
  }
};

// ChunkFn with two groups of kWidth blocks side by side (for the multiplies' latency). Always
// inlined into the target functions below, so gcc's note on passing vectors between functions of
// other targets (-Wpsabi) concerns calls that never happen.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
template <class Ops>
[[gnu::always_inline]] inline void ChunkWith(uint64_t key, uint64_t chunk, uint32_t* out) {
  using V = typename Ops::V;
  constexpr int kW = Ops::kWidth;
  const V m0 = Ops::Set1(kMul0), m1 = Ops::Set1(kMul1);
  for (int l = 0; l < kBlocks; l += 2 * kW) {
    V c[2][4];
    for (int g = 0; g < 2; ++g) {
      c[g][0] = Ops::Iota(l + kW * g);
      c[g][1] = Ops::Set1(static_cast<uint32_t>(chunk));
      c[g][2] = Ops::Set1(static_cast<uint32_t>(chunk >> 32));
      c[g][3] = Ops::Set1(0);
    }
    uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    for (int r = 0; r < 10; ++r, k0 += kBump0, k1 += kBump1) {
      const V key0 = Ops::Set1(k0), key1 = Ops::Set1(k1);
      for (auto& s : c) {
        const V p0 = Ops::Mul(s[0], m0), p1 = Ops::Mul(s[2], m1);
        s[0] = Ops::HighXor(p1, s[1], key0);
        s[2] = Ops::HighXor(p0, s[3], key1);
        s[1] = p1;
        s[3] = p0;
      }
    }
    for (int g = 0; g < 2; ++g) {
      for (int w = 0; w < 4; ++w) Ops::Store(c[g][w], out + w * kBlocks + l + kW * g);
    }
  }
}

#pragma GCC diagnostic pop

COMMSIM_TARGET_AVX2 void ChunkAvx2(uint64_t key, uint64_t chunk, uint32_t* out) {
  ChunkWith<Avx2Ops>(key, chunk, out);
}
COMMSIM_TARGET_AVX512 void ChunkAvx512(uint64_t key, uint64_t chunk, uint32_t* out) {
  ChunkWith<Avx512Ops>(key, chunk, out);
}
#endif

}  // namespace

const KernelVersions<ChunkFn>& Chunk() {
#ifdef COMMSIM_PHILOX_VECTORS
  static const KernelVersions<ChunkFn> versions{ChunkAvx512, ChunkAvx2, ChunkPortable};
#else
  static const KernelVersions<ChunkFn> versions{nullptr, nullptr, ChunkPortable};
#endif
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
