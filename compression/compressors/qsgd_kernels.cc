#include "compression/compressors/qsgd_kernels.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/target_clones.h"
#include "compression/coding/bit_append.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace commsim::qsgd_kernels {

COMMSIM_TARGET_CLONES
uint32_t NonzeroMasks(const uint32_t* __restrict ms, int64_t m, uint64_t* __restrict masks) {
  // One flag byte per element (a loop gcc vectorises), then eight flags to a mask byte: with
  // bytes b_0..b_7 in {0, 1} (b_0 lowest), the product by sum_i 2^(56 - 7i) has b_i * 2^(56 + i)
  // among its terms, and every other term b_i 2^(56 + 8i - 7j) at its own bit below 56 or at 64
  // and above (no carries), so bits 56..63 are b_0..b_7.
  m = m < 0 ? 0 : m > kChunk ? kChunk : m;
  alignas(64) uint8_t flags[kChunk];
  uint32_t all = 0;
  for (int64_t k = 0; k < m; ++k) {
    flags[k] = ms[k] > 1;
    all |= ms[k];
  }
  for (int64_t k = m; k < (m + 63) / 64 * 64; ++k) flags[k] = 0;
  for (int64_t w = 0; w < (m + 63) / 64; ++w) {
    uint64_t mask = 0;
    for (int b = 0; b < 8; ++b) {
      uint64_t eight;
      std::memcpy(&eight, flags + 64 * w + 8 * b, sizeof(eight));
      mask |= ((eight * 0x0102040810204080ULL) >> 56) << (8 * b);
    }
    masks[w] = mask;
  }
  return all;
}

namespace {

// True when every nonzero of the chunk (masks of m elements, the previous nonzero at prev < 0)
// has a gap below 16: no 15 zeros in a row in [prev + 1, m) (a sufficient condition).
bool ShortGaps(const uint64_t* masks, int64_t m, int64_t prev) {
  int64_t run = -1 - prev;  // the zeros before the chunk, then at the end of the words so far
  for (int64_t w = 0; w < (m + 63) / 64; ++w) {
    if (run + std::countr_zero(masks[w]) >= 15) return false;
    uint64_t r = ~masks[w];  // bit i: 15 zeros from i on, after the shifts
    r &= r >> 1;
    r &= r >> 2;
    r &= r >> 4;
    r &= r >> 7;
    if ((r & (~uint64_t{0} >> 14)) != 0) return false;
    run = masks[w] == 0 ? run + 64 : std::countl_zero(masks[w]);
  }
  return true;
}

// A table entry into bits/fill.
inline void AddEntry(uint32_t e, uint64_t& bits, int& fill) {
  bits |= static_cast<uint64_t>(e & 0xFFFF) << fill;
  fill += static_cast<int>(e >> 16);
}

// The whole bytes of bits to out; at most 7 bits stay. REQUIRES: fill < 64.
inline void StoreBytes(uint8_t*& out, uint64_t& bits, int& fill) {
  std::memcpy(out, &bits, sizeof(bits));
  out += fill >> 3;
  bits >>= fill & ~7;
  fill &= 7;
}

// CodePairs's loop on the local state, for any chunk: stops at a nonzero outside the table.
[[gnu::always_inline]] inline int64_t CheckedPairs(const uint32_t* __restrict ms,
                                                   const uint64_t* masks, int64_t m, int64_t from,
                                                   const uint32_t* __restrict entry, int64_t& last,
                                                   uint8_t*& out, uint64_t& bits, int& fill) {
  for (int64_t w = from / 64; w < (m + 63) / 64; ++w) {
    uint64_t mask = masks[w];
    if (w == from / 64) mask &= ~uint64_t{0} << (from % 64);
    for (; mask != 0; mask &= mask - 1) {
      const int64_t p = 64 * w + std::countr_zero(mask);
      const uint64_t gap = static_cast<uint64_t>(p - last);
      if ((gap | ms[p] >> 1) >= 16) {
        StoreBytes(out, bits, fill);
        return p;
      }
      last = p;
      AddEntry(entry[ms[p] << 4 | gap], bits, fill);
      StoreBytes(out, bits, fill);
    }
  }
  return m;
}

// The loop for a whole chunk whose every nonzero is in the table: the entry's index of element
// k is key[k] - last (ms << 4 plus the gap), and three entries (at most 7 + 45 bits) go to bits
// between stores.
[[gnu::always_inline]] inline void FastPairs(const uint32_t* __restrict ms, const uint64_t* masks,
                                             int64_t m, const uint32_t* __restrict entry,
                                             int64_t& last, uint8_t*& out, uint64_t& bits,
                                             int& fill) {
  alignas(64) int32_t key[kChunk];
  for (int64_t k = 0; k < m; ++k)
    key[k] = static_cast<int32_t>(ms[k] << 4) + static_cast<int32_t>(k);
  const auto add = [&](int64_t base, uint64_t& mask) {
    const int64_t p = base + std::countr_zero(mask);
    mask &= mask - 1;
    AddEntry(entry[key[p] - last], bits, fill);
    last = p;
  };
  for (int64_t w = 0; w < (m + 63) / 64; ++w) {
    uint64_t mask = masks[w];
    int n = std::popcount(mask);
    for (; n >= 3; n -= 3) {
      add(64 * w, mask);
      add(64 * w, mask);
      add(64 * w, mask);
      StoreBytes(out, bits, fill);
    }
    for (; n > 0; --n) add(64 * w, mask);
    StoreBytes(out, bits, fill);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define QSGD_AVX512_CODER 1
// FastPairs for AVX-512 (the same bits): per 16 elements, the nonzeros' positions and signed
// levels compressed to the front, their gaps by one lane shift, their gap and level codes from
// in-register tables (PairCoder), merged pairwise into at most four fields of at most 60 bits,
// which AppendBits (bit_append.h) appends. Returns false, the state unchanged, when a nonzero
// is outside the table (gap >= 16 or ms >= 32).
#define QSGD_AVX512_TARGET \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,bmi,bmi2,popcnt")))
QSGD_AVX512_TARGET bool FastPairsAvx512(const uint32_t* ms, int64_t m, const uint32_t* entry,
                                        int64_t& last, uint8_t*& out, uint64_t& bits, int& fill) {
  const __m512i gaps = _mm512_loadu_si512(entry + kGapCodes);
  const __m512i levels0 = _mm512_loadu_si512(entry + kLevelCodes);
  const __m512i levels1 = _mm512_loadu_si512(entry + kLevelCodes + 16);
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i low16 = _mm512_set1_epi32(0xFFFF);
  const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFF);
  const __m512i evens = _mm512_setr_epi64(0, 2, 4, 6, 0, 0, 0, 0);
  const __m512i odds = _mm512_setr_epi64(1, 3, 5, 7, 0, 0, 0, 0);
  uint64_t acc = bits;  // pending bits from byte `o` on; f < 64 of them
  int f = fill;
  uint8_t* o = out;
  int32_t prev = static_cast<int32_t>(std::max<int64_t>(last, -32));  // further: a gap >= 16
  __mmask16 outside = 0;  // lanes with a nonzero outside the table
  for (int64_t base = 0; base < m; base += 16) {
    const __mmask16 valid =
        m - base >= 16 ? __mmask16{0xFFFF} : static_cast<__mmask16>((1u << (m - base)) - 1);
    const __m512i v = _mm512_maskz_loadu_epi32(valid, ms + base);
    const __mmask16 nz = _mm512_mask_cmpgt_epu32_mask(valid, v, _mm512_set1_epi32(1));
    if (nz == 0) continue;
    const int c = __builtin_popcount(nz);
    const __m512i pos = _mm512_maskz_compress_epi32(
        nz, _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int32_t>(base))));
    const __m512i level = _mm512_maskz_compress_epi32(nz, v);
    const __m512i gap =
        _mm512_sub_epi32(pos, _mm512_alignr_epi32(pos, _mm512_set1_epi32(prev), 15));
    prev = static_cast<int32_t>(base) + 31 - __builtin_clz(nz);  // the last nonzero, from the mask
    const __m512i ge = _mm512_permutexvar_epi32(gap, gaps);
    const __m512i le = _mm512_permutex2var_epi32(levels0, level, levels1);
    const __m512i glen = _mm512_srli_epi32(ge, 16);
    const __mmask16 live = static_cast<__mmask16>((1u << c) - 1);
    outside |= _mm512_mask_cmpgt_epu32_mask(live, gap, _mm512_set1_epi32(15)) |
               _mm512_mask_cmpgt_epu32_mask(live, level, _mm512_set1_epi32(31));
    const __m512i field = _mm512_maskz_or_epi32(
        live, _mm512_and_si512(ge, low16), _mm512_sllv_epi32(_mm512_and_si512(le, low16), glen));
    const __m512i len = _mm512_maskz_add_epi32(live, glen, _mm512_srli_epi32(le, 16));
    const __m512i len_lo = _mm512_and_si512(len, low32);  // lane pairs: the first one low
    const __m512i field2 = _mm512_or_si512(_mm512_and_si512(field, low32),
                                           _mm512_sllv_epi64(_mm512_srli_epi64(field, 32), len_lo));
    const __m512i len2 = _mm512_add_epi64(len_lo, _mm512_srli_epi64(len, 32));
    const __m512i len_even = _mm512_permutexvar_epi64(evens, len2);  // pairs of pairs
    const __m512i field4 =
        _mm512_or_si512(_mm512_permutexvar_epi64(evens, field2),
                        _mm512_sllv_epi64(_mm512_permutexvar_epi64(odds, field2), len_even));
    const __m512i len4 = _mm512_add_epi64(len_even, _mm512_permutexvar_epi64(odds, len2));
    alignas(64) uint64_t fv[8], lv[8];
    _mm512_store_si512(fv, field4);
    _mm512_store_si512(lv, len4);
    // All four fields (those past the nonzeros are empty): no branch on the count.
    for (int i = 0; i < 4; ++i) AppendBits(fv[i], static_cast<int>(lv[i]), o, acc, f);
  }
  if (outside != 0) return false;
  StoreBytes(o, acc, f);
  out = o;
  bits = acc;
  fill = f;
  if (prev > -32) last = prev;  // else no nonzero: last stays
  return true;
}

bool CpuHasAvx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}
#endif

bool avx512_coder_enabled = true;

bool UseAvx512Coder() { return HasAvx512Coder() && avx512_coder_enabled; }

}  // namespace

void EnableAvx512Coder(bool enabled) { avx512_coder_enabled = enabled; }

bool HasAvx512Coder() {
#ifdef QSGD_AVX512_CODER
  static const bool has = CpuHasAvx512();
  return has;
#else
  return false;
#endif
}

bool TableChunkAvx512(const uint32_t* ms, int64_t m, int64_t* prev, PairCoder* coder) {
#ifdef QSGD_AVX512_CODER
  if (!UseAvx512Coder()) return false;
  uint8_t* out = coder->out;
  uint64_t bits = coder->bits;
  int fill = coder->fill;
  int64_t last = *prev;
  if (!FastPairsAvx512(ms, m, coder->entry, last, out, bits, fill)) return false;
  *coder = PairCoder{coder->entry, out, bits, fill};
  *prev = last;
  return true;
#else
  return false;
#endif
}

COMMSIM_TARGET_CLONES
int64_t CodePairs(const uint32_t* ms, const uint64_t* masks, int64_t m, int64_t from,
                  uint32_t levels, int64_t* prev, PairCoder* coder) {
  // The state in locals, which the byte stores cannot alias. Without a level of 16 or more and
  // a long zero run, no nonzero needs the check.
  uint8_t* out = coder->out;
  uint64_t bits = coder->bits;
  int fill = coder->fill;
  int64_t last = *prev;
  int64_t stop = m;
  if (from == 0 && levels < 32 && ShortGaps(masks, m, last)) {
#ifdef QSGD_AVX512_CODER
    if (UseAvx512Coder()) {
      FastPairsAvx512(ms, m, coder->entry, last, out, bits, fill);
    } else {
      FastPairs(ms, masks, m, coder->entry, last, out, bits, fill);
    }
#else
    FastPairs(ms, masks, m, coder->entry, last, out, bits, fill);
#endif
  } else {
    stop = CheckedPairs(ms, masks, m, from, coder->entry, last, out, bits, fill);
  }
  *coder = PairCoder{coder->entry, out, bits, fill};
  *prev = last;
  return stop;
}

}  // namespace commsim::qsgd_kernels
