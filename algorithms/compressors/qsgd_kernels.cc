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
void NonzeroMasks(const uint32_t* __restrict ms, int64_t m, uint64_t* __restrict masks) {
  // One flag byte per element (a loop gcc vectorises), then eight flags to a mask byte: with
  // bytes b_0..b_7 in {0, 1} (b_0 lowest), the product by sum_i 2^(56 - 7i) has b_i * 2^(56 + i)
  // among its terms, and every other term b_i 2^(56 + 8i - 7j) at its own bit below 56 or at 64
  // and above (no carries), so bits 56..63 are b_0..b_7.
  m = m < 0 ? 0 : m > kChunk ? kChunk : m;
  alignas(64) uint8_t flags[kChunk];
  for (int64_t k = 0; k < m; ++k) flags[k] = ms[k] > 1;
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
}

namespace {

// One nonzero at p into bits/fill, unless it is outside the table: then false.
inline bool AddPair(const uint32_t* __restrict entry, const uint32_t* __restrict ms, int64_t p,
                    int64_t& last, uint64_t& bits, int& fill) {
  const uint64_t gap = static_cast<uint64_t>(p - last);
  const uint32_t level = ms[p];
  if ((gap | level >> 1) >= 16) [[unlikely]] return false;
  last = p;
  const uint32_t e = entry[gap << 5 | level];
  bits |= static_cast<uint64_t>(e & 0xFFFF) << fill;
  fill += static_cast<int>(e >> 16);
  return true;
}

// The whole bytes of bits to out; at most 7 bits stay. REQUIRES: fill < 64.
inline void StoreBytes(uint8_t*& out, uint64_t& bits, int& fill) {
  std::memcpy(out, &bits, sizeof(bits));
  out += fill >> 3;
  bits >>= fill & ~7;
  fill &= 7;
}

}  // namespace

QSGD_KERNEL_CLONES
int64_t CodePairs(const uint32_t* ms, const uint64_t* masks, int64_t m, int64_t from,
                  int64_t* prev, PairCoder* coder) {
  // The state in locals, which the byte stores cannot alias. Three entries (at most 45 bits) go
  // to bits between stores.
  const uint32_t* const entry = coder->entry;
  uint8_t* out = coder->out;
  uint64_t bits = coder->bits;
  int fill = coder->fill;
  int64_t last = *prev;
  int64_t stop = m;
  for (int64_t w = from / 64; w < (m + 63) / 64 && stop == m; ++w) {
    uint64_t mask = masks[w];
    if (w == from / 64) mask &= ~uint64_t{0} << (from % 64);
    for (int k = 0; mask != 0; mask &= mask - 1) {
      const int64_t p = 64 * w + std::countr_zero(mask);
      if (!AddPair(entry, ms, p, last, bits, fill)) {
        stop = p;
        break;
      }
      if (++k == 3) {
        StoreBytes(out, bits, fill);
        k = 0;
      }
    }
    StoreBytes(out, bits, fill);
  }
  *coder = PairCoder{entry, out, bits, fill};
  *prev = last;
  return stop;
}

}  // namespace commsim::qsgd_kernels
