#include "compression/coding/golomb.h"

#include <fmt/format.h>

#include <cmath>

#include "base/check.h"
#include "compression/coding/elias.h"

namespace commsim {

GolombCode::GolombCode(uint64_t m) : m_(m), b_(CeilLog2(m)) {
  COMMSIM_CHECK(m >= 1, "Golomb parameter must be >= 1");
  u_ = b_ == 64 ? (0 - m) : (uint64_t{1} << b_) - m;
}

void GolombCode::Put(BitWriter& w, uint64_t v) const {
  const uint64_t q = v / m_;
  const uint64_t r = v - q * m_;
  if (q < 63) {
    w.Put(uint64_t{1} << q, static_cast<int>(q) + 1);
  } else {
    w.PutZeros(static_cast<int64_t>(q));
    w.Put(1, 1);
  }
  if (b_ == 0) return;
  if (r < u_) {
    w.Put(r, b_ - 1);
  } else {
    const uint64_t t = r + u_;
    w.Put(t >> 1, b_ - 1);
    w.Put(t & 1, 1);
  }
}

uint64_t GolombCode::Get(BitReader& r, uint64_t max_value) const {
  const uint64_t max_q = max_value / m_;
  const uint64_t q = static_cast<uint64_t>(r.CountZeros(static_cast<int64_t>(max_q)));
  r.Skip(1);
  uint64_t rem = 0;
  if (b_ > 0) {
    rem = r.Get(b_ - 1);
    if (rem >= u_) rem = ((rem << 1) | r.Get(1)) - u_;
  }
  const uint64_t v = q * m_ + rem;
  if (v > max_value) {
    throw DecodeError(fmt::format("corrupted message: Golomb value {} exceeds {}", v, max_value));
  }
  return v;
}

int64_t GolombCode::Bits(uint64_t v) const {
  const uint64_t q = v / m_;
  const uint64_t r = v - q * m_;
  const int64_t rem_bits = b_ == 0 ? 0 : (r < u_ ? b_ - 1 : b_);
  return static_cast<int64_t>(q) + 1 + rem_bits;
}

uint64_t GolombParameterFor(double p) {
  COMMSIM_CHECK(p > 0.0 && p <= 1.0, "Golomb probability {} outside (0, 1]", p);
  if (p >= 1.0) return 1;
  const double m = std::ceil(-std::log(2.0 - p) / std::log1p(-p));
  if (!(m >= 1.0)) return 1;
  if (m > 0x1p62) return uint64_t{1} << 62;
  return static_cast<uint64_t>(m);
}

}  // namespace commsim
