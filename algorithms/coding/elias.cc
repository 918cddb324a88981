#include "algorithms/coding/elias.h"

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

void PutEliasOmega(BitWriter& w, uint64_t x) {
  // Groups from the innermost (written first) to x itself; at most 6 for 64-bit x.
  uint64_t groups[8];
  int count = 0;
  while (x > 1) {
    groups[count++] = x;
    x = static_cast<uint64_t>(FloorLog2(x));
  }
  for (int i = count - 1; i >= 0; --i) {
    const int n = FloorLog2(groups[i]);
    w.Put(1, 1);
    w.Put(groups[i] & ((uint64_t{1} << n) - 1), n);
  }
  w.Put(0, 1);
}

uint64_t GetEliasOmega(BitReader& r) {
  uint64_t n = 1;
  while (r.GetBit()) {
    if (n > 63)
      throw DecodeError(fmt::format("corrupted message: Elias-omega group of {} bits", n));
    n = (uint64_t{1} << n) | r.Get(static_cast<int>(n));
  }
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
