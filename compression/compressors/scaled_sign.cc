#include "compression/compressors/scaled_sign.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {
constexpr std::string_view kScales[] = {"l1", "l2"};
}  // namespace

void ScaledSignConfig::Describe(ParamVisitor& v) {
  v.Int("block", block, Range::Closed(0, 1e12),
        "block size (elements per scale); 0: the whole vector is one block");
  v.Text("scale", scale, kScales, "l1: mean |x| per block; l2: ||x_B||_2 / sqrt|B|");
}

float ScaledSign::BlockScale(const double* x, int64_t n) const {
  if (l2_) return Fp32Nearest(Name(), std::sqrt(SumSquares(x, n) / static_cast<double>(n)));
  return Fp32Nearest(Name(), SumAbs(x, n) / static_cast<double>(n));
}

// BlockScale with the input check folded into the block's pass: NaN and Inf propagate into the
// block's sum, and then RequireFinite names the first one of the whole input, as a check up
// front would (before a scale beyond the fp32 range). Prefetches the block after next, as
// CheckedBlockNorm does.
float ScaledSign::CheckedBlockScale(const double* xb, int64_t n,
                                    const Eigen::Ref<const Eigen::VectorXd>& x) const {
  PrefetchBlockAfterNext(x.data(), x.size(), xb - x.data(), n);
  const double sum = l2_ ? SumSquares(xb, n) : SumAbs(xb, n);
  const double raw = l2_ ? std::sqrt(sum / static_cast<double>(n)) : sum / static_cast<double>(n);
  if (!std::isfinite(static_cast<float>(raw))) [[unlikely]]
    RequireFinite(Name(), x);
  return Fp32Nearest(Name(), raw);
}

namespace {

// The sign bits of one block, 64 per field (the sign bit of the double, so -0.0 counts as
// negative; its block scale decides the value); with a target, also the decoded values.
template <bool kDecoded>
void PutSigns(const double* xb, int64_t n, double sigma, BitWriter& w, const DecodeTarget* target) {
  const double value[2] = {sigma, -sigma};  // branch-free lookup
  for (int64_t j = 0; j < n; j += 64) {
    const int m = static_cast<int>(std::min<int64_t>(64, n - j));
    uint64_t word = 0;
    for (int k = 0; k < m; ++k) word |= (std::bit_cast<uint64_t>(xb[j + k]) >> 63) << k;
    w.Put(word, m);
    if constexpr (kDecoded) {
      for (int k = 0; k < m; ++k) target->Put(j + k, value[(word >> k) & 1]);
    }
  }
}

}  // namespace

Message ScaledSign::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                               const DecodeTarget* target) const {
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, block_);
  BitWriter w;
  w.Reserve(32 * nb + d);
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const double* xb = x.data() + begin;
    const float sigma = CheckedBlockScale(xb, n, x);
    w.PutFloat(sigma);
    if (target != nullptr) {
      const DecodeTarget t = target->Segment(begin, n);
      PutSigns<true>(xb, n, sigma, w, &t);
    } else {
      PutSigns<false>(xb, n, sigma, w, nullptr);
    }
  }
  return w.Finish();
}

void ScaledSign::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const double sigma = ReadScale(r);
    const double value[2] = {sigma, -sigma};  // branch-free lookup
    const DecodeTarget o = out.Segment(begin, n);
    double* plain = o.plain() ? o.out().data() : nullptr;  // direct stores vectorise
    for (int64_t j = 0; j < n; j += 64) {
      const int m = static_cast<int>(std::min<int64_t>(64, n - j));
      const uint64_t word = r.Get(m);
      if (plain != nullptr) {
        for (int k = 0; k < m; ++k) plain[j + k] = value[(word >> k) & 1];
      } else {
        for (int k = 0; k < m; ++k) o.Put(j + k, value[(word >> k) & 1]);
      }
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
  Expectation e;
  for (const auto [b, begin, n] : Blocks(d, block_)) {
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
