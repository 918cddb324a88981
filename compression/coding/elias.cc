#include "compression/coding/elias.h"

#include <fmt/format.h>

namespace commsim {

uint64_t GetEliasGamma(BitReader& r) {
  const int n = static_cast<int>(r.CountZeros(63));
  r.Skip(1);
  return (uint64_t{1} << n) | r.Get(n);
}

void PutEliasDelta(BitWriter& w, uint64_t x) {
  const int n = FloorLog2(x);
  PutEliasGamma(w, static_cast<uint64_t>(n) + 1);
  w.Put(x & ((uint64_t{1} << n) - 1), n);
}

uint64_t GetEliasDelta(BitReader& r) {
  const uint64_t n1 = GetEliasGamma(r);
  if (n1 > 64) throw DecodeError(fmt::format("corrupted message: Elias-delta length {}", n1 - 1));
  const int n = static_cast<int>(n1 - 1);
  return (uint64_t{1} << n) | r.Get(n);
}

int EliasDeltaBits(uint64_t x) {
  const int n = FloorLog2(x);
  return n + EliasGammaBits(static_cast<uint64_t>(n) + 1);
}

namespace elias_internal {
namespace {

constexpr OmegaTables MakeOmegaTables() {
  OmegaTables t{};
  for (uint64_t x = 1; x < 256; ++x) {
    uint64_t code = 0;
    int length = 0;
    uint64_t groups[4] = {};
    int count = 0;
    for (uint64_t g = x; g > 1; g = static_cast<uint64_t>(FloorLog2(g))) groups[count++] = g;
    for (int i = count - 1; i >= 0; --i) {
      const int n = FloorLog2(groups[i]);
      code |= (uint64_t{1} | (groups[i] & ((uint64_t{1} << n) - 1)) << 1) << length;
      length += n + 1;
    }
    ++length;  // the terminating zero
    t.code[x] = static_cast<uint16_t>(code);
    t.length[x] = static_cast<uint8_t>(length);
    if (length <= 8) {
      // Every window whose low `length` bits are this code decodes to x.
      for (uint64_t high = 0; high < (uint64_t{1} << (8 - length)); ++high) {
        t.decode[code | high << length] =
            static_cast<uint16_t>(x << 4 | static_cast<uint64_t>(length));
      }
    }
  }
  return t;
}

}  // namespace

constinit const OmegaTables kOmegaTables = MakeOmegaTables();

void PutEliasOmegaLarge(BitWriter& w, uint64_t x) {
  // The inner groups (innermost first; all but x itself, at most 1 + 7 + 3 + 2 + 1 bits) are
  // packed into one field — each a one bit, then its bits below its leading one, in BitWriter's
  // least-significant-first order — and x's group plus the terminating zero follow, in one Put
  // when the whole code fits 64 bits.
  uint64_t groups[8];
  int count = 0;
  for (uint64_t g = static_cast<uint64_t>(FloorLog2(x)); g > 1;
       g = static_cast<uint64_t>(FloorLog2(g))) {
    groups[count++] = g;
  }
  uint64_t inner = 0;
  int length = 0;
  for (int i = count - 1; i >= 0; --i) {
    const int n = FloorLog2(groups[i]);
    inner |= (uint64_t{1} | (groups[i] & ((uint64_t{1} << n) - 1)) << 1) << length;
    length += n + 1;
  }
  const int n = FloorLog2(x);
  const uint64_t low = x & ((uint64_t{1} << n) - 1);
  inner |= uint64_t{1} << length;  // x's leading one
  ++length;
  if (length + n + 1 <= 64) {
    w.Put(inner | low << length, length + n + 1);  // the zero bit is the field's top bit
  } else {
    w.Put(inner, length);
    w.Put(low, n);
    w.Put(0, 1);
  }
}

}  // namespace elias_internal

namespace {

// The bit-at-a-time decoder: the reference, and the path for codes near the end of a stream or
// longer than a 64-bit window.
uint64_t GetEliasOmegaSlow(BitReader& r) {
  uint64_t n = 1;
  while (r.GetBit()) {
    if (n > 63)
      throw DecodeError(fmt::format("corrupted message: Elias-omega group of {} bits", n));
    n = (uint64_t{1} << n) | r.Get(static_cast<int>(n));
  }
  return n;
}

}  // namespace

uint64_t GetEliasOmega(BitReader& r) {
  // Fast path: the whole code lies in the next 64 bits of the stream; decode it from one window.
  if (r.remaining() < 64) return GetEliasOmegaSlow(r);
  const uint64_t window = r.PeekWindow();
  if (const uint16_t e = elias_internal::kOmegaTables.decode[window & 255]; e != 0) {
    r.Skip(e & 15);
    return e >> 4;
  }
  uint64_t n = 1;
  int pos = 0;
  while ((window >> pos) & 1) {
    ++pos;                                 // the group's leading one
    const int bits = static_cast<int>(n);  // the group's bits below it (n <= 63 here)
    // The group and the next flag bit must lie inside the window.
    if (n > 63 || pos + bits >= 64) return GetEliasOmegaSlow(r);
    n = (uint64_t{1} << bits) | ((window >> pos) & ((uint64_t{1} << bits) - 1));
    pos += bits;
  }
  r.Skip(pos + 1);
  return n;
}

int EliasOmegaBits(uint64_t x) {
  int bits = 1;
  while (x > 1) {
    const int n = FloorLog2(x);
    bits += n + 1;
    x = static_cast<uint64_t>(n);
  }
  return bits;
}

}  // namespace commsim
