#include "algorithms/compressors/qsgd_kernels.h"

#include <bit>
#include <cstring>

// COMMSIM_TARGET_CLONES (sim/target_clones.h), with BMI2 in the AVX2 version (x86-64-v3): the
// coder's variable shifts without the count in cl.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define QSGD_KERNEL_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define QSGD_KERNEL_CLONES
#endif

namespace commsim::qsgd_kernels {

QSGD_KERNEL_CLONES
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
[[gnu::always_inline]] inline int64_t CheckedPairs(const uint32_t* __restrict ms, const uint64_t* masks, int64_t m,
                            int64_t from, const uint32_t* __restrict entry, int64_t& last,
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
[[gnu::always_inline]] inline void FastPairs(const uint32_t* __restrict ms, const uint64_t* masks, int64_t m,
                      const uint32_t* __restrict entry, int64_t& last, uint8_t*& out,
                      uint64_t& bits, int& fill) {
  alignas(64) int32_t key[kChunk];
  for (int64_t k = 0; k < m; ++k) key[k] = static_cast<int32_t>(ms[k] << 4) + static_cast<int32_t>(k);
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

}  // namespace

QSGD_KERNEL_CLONES
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
    FastPairs(ms, masks, m, coder->entry, last, out, bits, fill);
  } else {
    stop = CheckedPairs(ms, masks, m, from, coder->entry, last, out, bits, fill);
  }
  *coder = PairCoder{coder->entry, out, bits, fill};
  *prev = last;
  return stop;
}

}  // namespace commsim::qsgd_kernels
