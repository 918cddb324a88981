// Internal to the arithmetic coder (arithmetic.cc, arithmetic_run.cc): the exact integer steps
// shared by its per-symbol and run paths. Not part of the coder's interface.
#ifndef COMMSIM_ALGORITHMS_CODING_ARITHMETIC_STEPS_H_
#define COMMSIM_ALGORITHMS_CODING_ARITHMETIC_STEPS_H_

#include <bit>
#include <cstdint>

#include "algorithms/coding/arithmetic.h"

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

// The renormalisation of a narrowed interval [low, high] (32-bit, low < high) in closed form.
// The bit-at-a-time loop (emit and shift while the top bits agree; then count a pending bit and
// shift while low = 01.. and high = 10..) takes k steps of the first kind, then m of the second
// (after one of the second kind the top bits differ, so the first cannot follow): the top k bits
// agree, the next bit is 0 in low and 1 in high, the m bits after it are 1 in low and 0 in high.
// With w = low & ~high (zero in the top k + 1 bits), m >= 1 exactly when w's highest one is the
// bit right after the first difference (countl_zero(w) = k + 1); w's first run of ones is then
// the m bits, and it ends at the highest one of w & ~(w << 1), whose countl_zero is k + m. The
// three counts are independent, which keeps them off each other's latency.
struct Shift {
  int k;  // settled leading bits
  int s;  // k + m: the total left shift
};
// All-ones when b, else zero: the selects below are masks, not branches (the compiler turns a
// conditional on these data-dependent, unpredictable conditions into a jump).
inline uint32_t Mask32(bool b) { return 0u - static_cast<uint32_t>(b); }
inline uint64_t Mask64(bool b) { return 0 - static_cast<uint64_t>(b); }
inline Shift RenormShift(uint64_t low, uint64_t high) {
  const uint32_t l = static_cast<uint32_t>(low), h = static_cast<uint32_t>(high);
  const uint32_t d = l ^ h;  // nonzero: low < high
  const uint32_t w = l & ~h;
  const uint32_t w_up = (l << 1) & ~(h << 1);  // w << 1, from low and high directly
  const int k = __builtin_clz(d);
  // 32-bit counts of possibly zero operands, as 64-bit counts of nonzero ones
  const int run_end = __builtin_clzll(uint64_t{w & ~w_up} << 32 | 1);
  const uint32_t pending = Mask32(__builtin_clzll(uint64_t{w} << 32 | 1) == k + 1);
  return {k, k + static_cast<int>(static_cast<uint32_t>(run_end - k) & pending)};
}

// The 64 bits of v in reverse order (bit 63 becomes bit 0).
inline uint64_t Reverse64(uint64_t v) {
  v = __builtin_bswap64(v);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  return ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
}

// Writes the k settled bits of a narrowed low (its top k of 32 bits), the first one followed by
// the `pending` opposite bits, through put(chunk, n) (n bits, the first one most significant);
// clears `pending` when k > 0 and keeps it when k = 0 (then nothing is written). The usual case
// is one chunk without a branch on k: when the first bit f is 1 it is followed by p zeros (2^p),
// when it is 0 by p ones (2^p - 1): f then p opposite bits is 2^p - 1 + f, so the chunk is
// top + (2^p - 1) << (k - 1), with top the k bits.
template <class Put>
inline void EmitSettled(uint64_t low, int k, int64_t& pending, Put&& put) {
  const uint64_t top = low >> (32 - k);                              // k = 0: 0
  const int64_t p = pending & static_cast<int64_t>(Mask64(k != 0));  // k = 0: p = 0
  if (p + k > 64) [[unlikely]] {  // a pending run longer than a word (k > 0)
    const uint64_t first = top >> (k - 1);
    put(first, 1);
    for (; pending > 0; pending -= 32) {
      const int n = pending < 32 ? static_cast<int>(pending) : 32;
      put(first == 0 ? (uint64_t{1} << n) - 1 : 0, n);
    }
    pending = 0;
    put(top & ((uint64_t{1} << (k - 1)) - 1), k - 1);
    return;
  }
  // p <= 63 when k > 0; k = 0: the chunk is 0 and n = 0
  put(top + ((((uint64_t{1} << p) - 1) << k) >> 1), static_cast<int>(p) + k);
  pending -= p;
}

// Decoder: at least 32 bits in st.buf (the reader reads zeros past the end of the message).
inline void Refill(DecoderState& st, BitReader& in) {
  if (st.avail < 32) {
    st.buf |= Reverse64(in.GetPadded(32)) >> st.avail;  // first bit read most significant
    st.avail += 32;
  }
}

// Decoder: narrows to [low + ql, low + qh - 1] and renormalises (RenormShift). The code value
// follows low: a settling step clears bit 31 (both in one half) and shifts in the next bit; a
// pending step subtracts a quarter from a value in [1/4, 3/4) and shifts, which flips bit 30 and
// shifts it to bit 31: after m >= 1 of them only the last flip stays inside the 32 bits.
// REQUIRES: st.avail >= 32 (Refill).
inline void Advance(DecoderState& st, uint64_t ql, uint64_t qh) {
  const uint64_t low = st.low + ql;
  const Shift sh = RenormShift(low, st.low + qh - 1);
  const uint64_t next = (st.buf >> (63 - sh.s)) >> 1;  // the next s bits (s <= 31)
  st.buf <<= sh.s;
  st.avail -= sh.s;
  st.value = (((st.value << sh.s) | next) & 0xFFFFFFFFu) ^ (kHalf & Mask64(sh.s > sh.k));
  st.low = (low << sh.s) & 0x7FFFFFFFu;
  st.range = (qh - ql) << sh.s;
  st.shifts += sh.s;
}

}  // namespace commsim::arithmetic_steps

#endif  // COMMSIM_ALGORITHMS_CODING_ARITHMETIC_STEPS_H_
