#include "compression/compressors/terngrad.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/block_ternary_blocks.h"
#include "compression/compressors/block_ternary_coding.h"
#include "compression/compressors/block_ternary_sum.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {
constexpr BlockTernary::Coding kFixed2 = BlockTernary::Coding::kFixed2;
}  // namespace

void TernGradConfig::Describe(ParamVisitor& v) {
  v.Int("block", block, Range::Closed(0, 1e12),
        "block size b (elements per scale); 0: the whole vector is one block");
  v.Real("clip", clip, Range::Closed(0, 1e6),
         "clip each block at clip x its standard deviation first (0: off; the paper uses 2.5; "
         "biased)");
  DescribeRngKey(v, rng);
}

TernGrad::TernGrad(const TernGradConfig& config)
    : DrawingCompressor("terngrad", /*unbiased=*/config.clip == 0.0, config.rng),
      block_(config.block),
      clip_(config.clip) {}

int64_t TernGrad::BlockFor(int64_t d) const {
  return block_ > 0 ? block_ : std::max<int64_t>(d, 1);
}

double TernGrad::ClipThreshold(const double* xb, int64_t n) const {
  double sum = 0.0;
  for (int64_t j = 0; j < n; ++j) sum += xb[j];
  const double mean = sum / static_cast<double>(n);
  double squares = 0.0;
  for (int64_t j = 0; j < n; ++j) squares += (xb[j] - mean) * (xb[j] - mean);
  return clip_ * std::sqrt(squares / static_cast<double>(n));
}

// Clipping: the input check comes first (a NaN would poison tau), then the scale of the clipped
// values, max |c_j| = min(max |x_j|, tau), exactly.
const double* TernGrad::BlockValues(const double* xb, int64_t n,
                                    const Eigen::Ref<const Eigen::VectorXd>& x, double* clipped,
                                    float* scale) const {
  if (clip_ == 0.0) {
    *scale = CheckedBlockNorm(Name(), /*inf_norm=*/true, xb, n, x);
    return xb;
  }
  bool finite = true;
  const double max_abs = MaxAbsChecked(xb, n, &finite);
  if (!finite) RequireFinite(Name(), x);
  const double tau = ClipThreshold(xb, n);
  for (int64_t j = 0; j < n; ++j) clipped[j] = std::clamp(xb[j], -tau, tau);
  *scale = CheckedFp32Up(Name(), std::min(max_abs, tau), /*finite=*/true, x);
  return clipped;
}

template <class Src>
Message TernGrad::EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                             const DecodeTarget* target) const {
  const int64_t d = x.size();
  const int64_t block = BlockFor(d);
  BitWriter w;
  w.Reserve(ternary_blocks::ReserveBits(kFixed2, d, block));
  std::vector<double> clipped(clip_ > 0.0 ? static_cast<size_t>(std::min(block, d)) : 0);
  for (const auto [b, begin, n] : Blocks(d, block)) {
    float scale = 0.0f;
    const double* values = BlockValues(x.data() + begin, n, x, clipped.data(), &scale);
    ternary_blocks::PutBlock(kFixed2, values, begin, n, scale, src, w, target,
                             {nullptr, nullptr, nullptr});
  }
  return w.Finish();
}

void TernGrad::DecodeInto(const Message& message, const DecodeTarget& out) const {
  if (out.accumulates()) {  // out += weight * v: block_ternary's fused pass over the same format
    const Message* one[] = {&message};
    ternary_sum::AddInto(one, {BlockFor(out.size()), kFixed2}, out.weight(), out.out().data(),
                         out.size());
    return;
  }
  BitReader r(message);
  for (const auto [b, begin, n] : Blocks(out.size(), BlockFor(out.size()))) {
    const double scale = ReadScale(r);
    ternary_coding::GetFixed2(r, n, scale, out.Segment(begin, n));
  }
  r.ExpectEnd();
}

void TernGrad::DecodeSumInto(std::span<const Message* const> messages,
                             const DecodeTarget& target) const {
  if (!target.accumulates()) {
    Compressor::DecodeSumInto(messages, target);
    return;
  }
  ternary_sum::AddInto(messages, {BlockFor(target.size()), kFixed2}, target.weight(),
                       target.out().data(), target.size());
}

void TernGrad::DecodeSumFromZero(std::span<const Message* const> messages,
                                 Eigen::Ref<Eigen::VectorXd> scratch,
                                 const SumChunkDone& done) const {
  ternary_sum::SumFromZero(messages, {BlockFor(scratch.size()), kFixed2}, scratch, done);
}

double TernGrad::ErrorFactor(int64_t dim) const {
  const int64_t b = std::min(BlockFor(dim), std::max<int64_t>(dim, 1));
  const double ternary = (std::sqrt(static_cast<double>(b)) - 1.0) / 2.0;
  return clip_ > 0.0 ? std::max(ternary, 1.0) : ternary;
}

Expectation TernGrad::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t block = BlockFor(d);
  std::vector<double> clipped(clip_ > 0.0 ? static_cast<size_t>(std::min(block, d)) : 0);
  Expectation e;
  for (const auto [b, begin, n] : Blocks(d, block)) {
    const double* xb = x.data() + begin;
    float scale_f = 0.0f;
    const double* c = BlockValues(xb, n, x, clipped.data(), &scale_f);
    if (c != xb) {  // clipped: the bias part, ||c_B - x_B||^2
      for (int64_t j = 0; j < n; ++j) e.squared_error += (c[j] - xb[j]) * (c[j] - xb[j]);
    }
    const double scale = scale_f;
    if (scale == 0.0) continue;
    double l1 = 0.0, l2sq = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      l1 += std::abs(c[j]);
      l2sq += c[j] * c[j];
    }
    e.squared_error += l1 * scale - l2sq;
    e.nonzeros += l1 / scale;
  }
  e.payload_bits = 32.0 * static_cast<double>(NumBlocks(d, block)) + 2.0 * static_cast<double>(d);
  e.bits_formula = "32*ceil(d/b) + 2d (exact; b = d when block = 0)";
  return e;
}

template class DrawingCompressor<TernGrad>;  // EncodeImpl, with EncodeWith above

}  // namespace commsim
