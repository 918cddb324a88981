#include "algorithms/compressors/scaled_sign.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"
#include "algorithms/compressors/wire.h"

namespace commsim {
namespace {
constexpr std::string_view kScales[] = {"l1", "l2"};
}  // namespace

void ScaledSignConfig::Describe(ParamVisitor& v) {
  v.Int("block", block, Range::Closed(1, 1e12), "block size (elements per scale)");
  v.Text("scale", scale, kScales, "l1: mean |x| per block; l2: ||x_B||_2 / sqrt|B|");
}

float ScaledSign::BlockScale(const double* x, int64_t n) const {
  if (l2_) return Fp32Nearest(Name(), std::sqrt(SumSquares(x, n) / static_cast<double>(n)));
  return Fp32Nearest(Name(), SumAbs(x, n) / static_cast<double>(n));
}

Message ScaledSign::Encode(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/) const {
  RequireFinite(Name(), x);
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, block_);
  BitWriter w;
  w.Reserve(32 * nb + d);
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t begin = b * block_;
    const int64_t n = std::min(block_, d - begin);
    const double* xb = x.data() + begin;
    w.PutFloat(BlockScale(xb, n));
    for (int64_t j = 0; j < n; j += 64) {
      const int m = static_cast<int>(std::min<int64_t>(64, n - j));
      uint64_t word = 0;
      // The sign bit of the double (so -0.0 counts as negative; its block scale decides the value).
      for (int k = 0; k < m; ++k) word |= (std::bit_cast<uint64_t>(xb[j + k]) >> 63) << k;
      w.Put(word, m);
    }
  }
  return w.Finish();
}

void ScaledSign::Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const int64_t nb = NumBlocks(d, block_);
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t begin = b * block_;
    const int64_t n = std::min(block_, d - begin);
    const double sigma = ReadScale(r);
    double* o = out.data() + begin;
    for (int64_t j = 0; j < n; j += 64) {
      const int m = static_cast<int>(std::min<int64_t>(64, n - j));
      const uint64_t word = r.Get(m);
      const double value[2] = {sigma, -sigma};  // branch-free lookup
      for (int k = 0; k < m; ++k) o[j + k] = value[(word >> k) & 1];
    }
  }
  r.ExpectEnd();
}

double ScaledSign::ErrorFactor(int64_t dim) const {
  const double b = static_cast<double>(std::min(block_, std::max<int64_t>(dim, 1)));
  return l2_ ? 2.0 * (1.0 - 1.0 / std::sqrt(b)) : 1.0 - 1.0 / b;
}

Expectation ScaledSign::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, block_);
  Expectation e;
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t begin = b * block_;
    const int64_t n = std::min(block_, d - begin);
    const double* xb = x.data() + begin;
    const double sigma = BlockScale(xb, n);
    for (int64_t j = 0; j < n; ++j) {
      const double q = xb[j] < 0 ? -sigma : sigma;
      e.squared_error += (q - xb[j]) * (q - xb[j]);
    }
    if (sigma != 0.0) e.nonzeros += static_cast<double>(n);
    e.payload_bits += 32.0 + static_cast<double>(n);
  }
  e.bits_formula = "32*ceil(d/b) + d (exact)";
  return e;
}

}  // namespace commsim
