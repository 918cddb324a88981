// Internal to the arithmetic coder (arithmetic.cc, arithmetic_run.cc): the exact integer steps
// shared by its per-symbol and run paths. Not part of the coder's interface.
#ifndef COMMSIM_COMPRESSION_CODING_ARITHMETIC_STEPS_H_
#define COMMSIM_COMPRESSION_CODING_ARITHMETIC_STEPS_H_

#include <bit>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "compression/coding/arithmetic.h"

namespace commsim::arithmetic_steps {

constexpr uint64_t kHalf = uint64_t{1} << 31;
constexpr uint64_t kQuarter = uint64_t{1} << 30;
constexpr uint32_t kIncrement = 32;
constexpr uint32_t kMaxTotal = uint32_t{1} << 16;

__extension__ typedef unsigned __int128 Uint128;

// floor(a / t) by a multiplication: the division's latency would otherwise be on the coder's
// critical path (each symbol's interval depends on the previous one), while the reciprocal
// depends only on the model's total. Exact for 2 <= t <= 2^16 and a <= 2^32 t (a = range * count,
// range <= 2^32, count <= t): with m = floor((2^64 - 1) / t) + 1 = 2^64 / t + e, 0 <= e <= 1,
// a m / 2^64 = a / t + a e / 2^64, and a e / 2^64 < 1 / t whenever the remainder of a / t is
// positive (a < 2^32 t then, so a e / 2^64 < t / 2^32 <= 1 / t): the floor is unchanged.
inline uint64_t Reciprocal(uint64_t t) { return ~uint64_t{0} / t + 1; }
inline uint64_t DivideBy(uint64_t a, uint64_t reciprocal) {
  return static_cast<uint64_t>((static_cast<Uint128>(a) * reciprocal) >> 64);
}
// The reciprocals of the totals t, t + kIncrement, t + 2 kIncrement, ... (up to kMaxTotal) at
// consecutive addresses, for 2 <= t <= kMaxTotal: the totals of consecutive symbols step by
// kIncrement, so a run of symbols reads one array in order (a load instead of a division per
// symbol; 8 bytes a symbol, not a cache line). The table (512 KB) is laid out by t mod kIncrement.
const uint64_t* Reciprocals(uint32_t t);

// The 32 bits of v in reverse order (bit 31 becomes bit 0): 32-bit masks, immediate operands.
inline uint32_t Reverse32(uint32_t v) {
  v = __builtin_bswap32(v);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  return ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
}

// The 64 bits of v in reverse order (bit 63 becomes bit 0).
inline uint64_t Reverse64(uint64_t v) {
  v = __builtin_bswap64(v);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  return ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
}

// The renormalisation of a narrowed interval [x, h] (x < h; both may be offset by a common
// multiple of 2^31 from the textbook coder's 32-bit [low, high], which the count does not see):
// the number s of the bit-at-a-time loop's steps (settle while the top bits agree, then count a
// pending bit while low = 01.. and high = 10..). That loop runs at least j steps exactly when
// [low, high] lies in [a 2^(31-j), (a + 2) 2^(31-j)) for an integer a (j settling steps: a even;
// i settling steps then j - i pending ones: the span around a midpoint, a odd), that is when
// (high >> (31 - j)) - (low >> (31 - j)) <= 1. With d = high - low of n bits (2^(n-1) <= d < 2^n)
// the interval fits no span shorter than d + 1, so s <= 32 - n; after the loop low < 2^30 or
// high >= 3 2^30 with low < 2^31 <= high, so (d + 1) 2^s = high - low + 1 > 2^30 and s >= 31 - n.
// Hence s = 31 - n, plus one when the test passes for j = 32 - n; there the difference is 1 or 2
// (2^(n-1) <= d < 2^n), so s = 33 - n - difference.
// REQUIRES: 1 <= d = h - x < 2^32 (the coder's narrowed ranges are at least 2^13).
inline int ShiftCount(uint64_t x, uint64_t h, uint64_t d) {
#if defined(__x86_64__)
  const int t = static_cast<int>(__bsrq(static_cast<long long>(d)));  // n - 1: bsr, no 63 - lzcnt
#else
  const int t = 63 - __builtin_clzll(d);
#endif
  // 32 - t as (t ^ 31) + 1 (t <= 31): no constant in a register; + 1 folds into a lea. In 32-bit
  // unsigned arithmetic: x >> t and h >> t may not fit an int, their difference (1 or 2 at most
  // here) and so the result do, and wrapping sums give it exactly.
  const auto u = static_cast<uint32_t>((t ^ 31) + 1) + static_cast<uint32_t>(x >> t) -
                 static_cast<uint32_t>(h >> t);
  return static_cast<int>(u);
}
inline int ShiftCount(uint64_t x, uint64_t h) { return ShiftCount(x, h, h - x); }

// qh - ql - 1 as qh - (ql + 1), ql + 1 formed while qh is still being multiplied (the compiler
// would otherwise reassociate it to (qh - ql) - 1, one more step after qh).
inline uint64_t WidthLessOne(uint64_t ql, uint64_t qh) {
  uint64_t next = ql + 1;
#if defined(__GNUC__)
  asm("" : "+r"(next));  // an opaque value: no reassociation
#endif
  return qh - next;
}

// Writes the held chunks (EncoderState), plus `carry` (0 or 1): the cache plus the carry, then
// the all-ones chunks (zeros after a carry). A carry never passes the first bit of a pending run
// (a 0, the run's other bits ones: the carry makes them 10..0 and stops), which lies in the held
// chunk or after it: the held chunk plus one never overflows.
inline void WriteHeld(EncoderState& st, uint64_t carry, BitWriter& out) {
  auto put = [&out](uint64_t chunk) {  // bit 31 first
    out.Put(Reverse32(static_cast<uint32_t>(chunk)), 32);
  };
  if (st.has_cache) put(st.cache + carry);
  for (; st.ones > 0; --st.ones) put(carry != 0 ? 0 : 0xFFFFFFFFu);
  st.has_cache = false;
}

// B's next chunk after the held ones, with a carry into those.
inline void PutChunk(EncoderState& st, uint64_t carry, uint32_t chunk, BitWriter& out) {
  if (carry != 0) WriteHeld(st, carry, out);
  if (chunk == 0xFFFFFFFFu && st.has_cache) {
    ++st.ones;
    return;
  }
  WriteHeld(st, 0, out);
  st.cache = chunk;
  st.has_cache = true;
}

// Moves B's first 32 unwritten bits (and a carry above them) out of acc, returns the rest.
// REQUIRES: 32 <= fill < 64; fill is then 32 less.
inline uint64_t FlushChunk(EncoderState& st, uint64_t acc, int& fill, BitWriter& out) {
  fill -= 32;
  PutChunk(st, acc >> (fill + 32), static_cast<uint32_t>(acc >> fill), out);
  return acc & ((uint64_t{1} << fill) - 1);
}

// One symbol: the interval [low, low + range - 1] (range = width << shift on entry) narrowed to
// [low + ql, low + qh - 1] and renormalised by ShiftCount steps: width = qh - ql and shift = that
// count on return. The bits shifted out of the 32-bit low, and a carry out of it, are added to B
// (acc, fill; `held` the chunks). The textbook coder keeps low - 2^31 where this low passed 2^31
// by a pending step: its later settling step to 1 is this low's carry.
inline void EncodeStep(uint64_t& low, uint64_t& width, int& shift, uint64_t& acc, int& fill,
                       uint64_t ql, uint64_t qh, EncoderState& held, BitWriter& out) {
  const uint64_t x = low + ql;  // < 2^33: bit 32 is a carry
  const uint64_t d = WidthLessOne(ql, qh);
  const int s = ShiftCount(x, x + d, d);
  acc = (acc << s) + (x >> (32 - s));  // s = 0: x < 2^32 (a low past 2^31 settles)
  fill += s;
  low = (x << s) & 0xFFFFFFFFu;
  width = d + 1;
  shift = s;
  if (fill >= 32) [[unlikely]]
    acc = FlushChunk(held, acc, fill, out);
}

// Decoder: at least 32 bits in st.buf (the reader reads zeros past the end of the message).
inline void Refill(DecoderState& st, BitReader& in) {
  if (st.avail < 32) {
    // the first bit read most significant
    st.buf |= (uint64_t{Reverse32(static_cast<uint32_t>(in.GetPadded(32)))} << 32) >> st.avail;
    st.avail += 32;
  }
}

// Decoder: narrows to [low + ql, low + qh - 1] and renormalises as the encoder does; the code
// value's offset v from low shifts in the next s bits (the textbook decoder's pending steps take
// the same quarter from its value and its low). REQUIRES: st.avail >= 32 (Refill), ql <= v < qh.
inline void Advance(DecoderState& st, uint64_t ql, uint64_t qh) {
  const uint64_t x = st.low + ql;
  const int s = ShiftCount(x, st.low + qh - 1, WidthLessOne(ql, qh));
  const uint64_t next = (st.buf >> (63 - s)) >> 1;  // the next s bits (s <= 31)
  st.buf <<= s;
  st.avail -= s;
  st.v = ((st.v - ql) << s) | next;
  st.low = (x << s) & 0xFFFFFFFFu;
  st.range = (qh - ql) << s;
  st.shifts += s;
}

}  // namespace commsim::arithmetic_steps

#endif  // COMMSIM_COMPRESSION_CODING_ARITHMETIC_STEPS_H_
