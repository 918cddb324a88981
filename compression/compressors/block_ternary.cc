#include "compression/compressors/block_ternary.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/coding/elias.h"
#include "compression/compressors/block_ternary_blocks.h"
#include "compression/compressors/block_ternary_coding.h"
#include "compression/compressors/block_ternary_sum.h"
#include "compression/compressors/ternary_masks.h"
#include "compression/compressors/uniform_draws.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {

constexpr std::string_view kPChoices[] = {"2", "inf"};
constexpr std::string_view kCodings[] = {"fixed2", "packed", "sparse", "entropy"};

}  // namespace

void BlockTernaryConfig::Describe(ParamVisitor& v) {
  v.Text("p", p, kPChoices, "norm of each block: 2 or inf");
  v.Int("block", block, Range::Closed(1, 1e12), "block size b (elements per norm)");
  v.Text("coding", coding, kCodings, "symbol coding: fixed2, packed, sparse or entropy");
  DescribeRngKey(v, rng);
}

BlockTernary::BlockTernary(const BlockTernaryConfig& config)
    : DrawingCompressor("block_ternary", /*unbiased=*/true, config.rng),
      p_inf_(config.p == "inf"),
      block_(config.block),
      counter_(UsesCounterRng(config.rng)) {
  const auto* it = std::find(std::begin(kCodings), std::end(kCodings), config.coding);
  COMMSIM_CHECK(it != std::end(kCodings), "unknown coding {}", config.coding);
  coding_ = static_cast<Coding>(it - std::begin(kCodings));
  COMMSIM_CHECK(block_ >= 1 && (config.p == "2" || p_inf_), "bad block_ternary config");
}

template <class Src>
Message BlockTernary::EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                                 const DecodeTarget* target) const {
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, block_);
  BitWriter w;
  const bool masked = coding_ == Coding::kPacked || coding_ == Coding::kSparse;
  // written before it is read (entropy: the nonzero blocks' symbols), so not zeroed first
  const int64_t sym_size =
      coding_ == Coding::kEntropy ? d : (coding_ == Coding::kFixed2 ? 0 : std::min(block_, d));
  const auto sym = std::make_unique_for_overwrite<int8_t[]>(static_cast<size_t>(sym_size));
  std::vector<uint64_t> keep(masked ? ternary_masks::MaskWords(std::min(block_, d)) : 0);
  std::vector<uint64_t> neg(keep.size());
  std::vector<float> norms(static_cast<size_t>(coding_ == Coding::kEntropy ? nb : 0));
  w.Reserve(ternary_blocks::ReserveBits(coding_, d, block_));
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const double* xb = x.data() + begin;
    const float norm = CheckedBlockNorm(Name(), p_inf_, xb, n, x);
    if (coding_ == Coding::kEntropy) norms[static_cast<size_t>(b)] = norm;
    int8_t* s = coding_ == Coding::kEntropy ? sym.get() + begin : sym.get();
    ternary_blocks::PutBlock(coding_, xb, begin, n, norm, src, w, target,
                             {s, keep.data(), neg.data()});
  }
  if (coding_ == Coding::kEntropy) ternary_coding::PutEntropy(sym.get(), d, norms, block_, w);
  return w.Finish();
}

void BlockTernary::DecodeInto(const Message& message, const DecodeTarget& out) const {
  if (coding_ != Coding::kEntropy && out.accumulates()) {  // out += weight * v: the fused path
    const Message* one[] = {&message};
    ternary_sum::AddInto(one, {block_, coding_}, out.weight(), out.out().data(), out.size());
    return;
  }
  BitReader r(message);
  const int64_t d = out.size();
  const int64_t nb = NumBlocks(d, block_);
  std::vector<float> norms(coding_ == Coding::kEntropy ? static_cast<size_t>(nb) : 0);
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const float norm_f = ReadScale(r);
    const double norm = norm_f;
    const DecodeTarget o = out.Segment(begin, n);
    switch (coding_) {
      case Coding::kFixed2:
        ternary_coding::GetFixed2(r, n, norm, o);
        break;
      case Coding::kPacked:
        ternary_coding::GetPacked(r, n, norm, o);
        break;
      case Coding::kSparse:
        if (norm_f != 0.0f) {
          ternary_coding::GetSparse(r, n, norm, o);
        } else {
          o.PutZeros(0, n);
        }
        break;
      case Coding::kEntropy:
        norms[static_cast<size_t>(b)] = norm_f;
        break;
    }
  }
  if (coding_ == Coding::kEntropy) ternary_coding::GetEntropy(r, norms, block_, out);
  r.ExpectEnd();
}

void BlockTernary::DecodeSumInto(std::span<const Message* const> messages,
                                 const DecodeTarget& target) const {
  if (coding_ == Coding::kEntropy || !target.accumulates()) {
    Compressor::DecodeSumInto(messages, target);
    return;
  }
  ternary_sum::AddInto(messages, {block_, coding_}, target.weight(), target.out().data(),
                       target.size());
}

void BlockTernary::DecodeSumFromZero(std::span<const Message* const> messages,
                                     Eigen::Ref<Eigen::VectorXd> scratch,
                                     const SumChunkDone& done) const {
  if (coding_ == Coding::kEntropy) {
    Compressor::DecodeSumFromZero(messages, scratch, done);
    return;
  }
  ternary_sum::SumFromZero(messages, {block_, coding_}, scratch, done);
}

double BlockTernary::ErrorFactor(int64_t dim) const {
  const double root_b = std::sqrt(static_cast<double>(std::min(block_, std::max<int64_t>(dim, 1))));
  return p_inf_ ? (root_b - 1.0) / 2.0 : root_b - 1.0;
}

Expectation BlockTernary::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, block_);
  Expectation e;
  std::array<double, 3> hist = {0, 0, 0};  // expected counts of -1, 0, +1 in nonzero blocks
  double sparse_bits = 0.0;
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const double* xb = x.data() + begin;
    const double norm = CheckedBlockNorm(Name(), p_inf_, xb, n, x);
    if (norm == 0.0) continue;
    double l1 = 0.0, l2sq = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      l1 += std::abs(xb[j]);
      l2sq += xb[j] * xb[j];
      const double prob = std::abs(xb[j]) / norm;
      hist[xb[j] < 0 ? 0 : 2] += prob;
      hist[1] += 1.0 - prob;
    }
    e.squared_error += l1 * norm - l2sq;
    e.nonzeros += l1 / norm;
    sparse_bits += CeilLog2(static_cast<uint64_t>(n) + 1) +
                   l1 / norm * (1 + CeilLog2(static_cast<uint64_t>(n)));
  }
  const double head = 32.0 * static_cast<double>(nb);
  switch (coding_) {
    case Coding::kFixed2:
      e.payload_bits = head + 2.0 * static_cast<double>(d);
      e.bits_formula = "32*ceil(d/b) + 2d (exact)";
      break;
    case Coding::kPacked: {
      const int64_t full = d / block_, rest = d % block_;
      e.payload_bits = head + 8.0 * static_cast<double>(full * ((block_ + 4) / 5) + (rest + 4) / 5);
      e.bits_formula = "sum over blocks of 32 + 8*ceil(|B|/5) (exact)";
      break;
    }
    case Coding::kSparse:
      e.payload_bits = head + sparse_bits;
      e.bits_formula =
          "sum over nonzero blocks of 32 + ceil(log2(|B|+1)) + E[nnz_B]*(1 + ceil(log2 |B|))";
      break;
    case Coding::kEntropy:
      e.payload_bits = head + EntropyBits(hist.data(), 3);
      e.bits_formula = "32*ceil(d/b) + n*H(expected symbol frequencies) (approx.)";
      break;
  }
  return e;
}

template class DrawingCompressor<BlockTernary>;  // EncodeImpl, with EncodeWith above

}  // namespace commsim
