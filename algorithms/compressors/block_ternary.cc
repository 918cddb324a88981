#include "algorithms/compressors/block_ternary.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"
#include "algorithms/coding/elias.h"
#include "algorithms/compressors/block_ternary_coding.h"
#include "algorithms/compressors/block_ternary_sum.h"
#include "algorithms/compressors/counter_kernels.h"
#include "algorithms/compressors/ternary_masks.h"
#include "algorithms/compressors/uniform_draws.h"
#include "algorithms/compressors/wire.h"

namespace commsim {
namespace {

constexpr std::string_view kPChoices[] = {"2", "inf"};
constexpr std::string_view kCodings[] = {"fixed2", "packed", "sparse", "entropy"};

// The 2-bit code of one element: 0 -> 00, +1 -> 01, -1 -> 11, from an integer draw in
// [0, Src::kOne); `scale` is Src::kOne / norm. Branch-free: the Bernoulli outcome is
// unpredictable, a branch on it mispredicts half the time.
inline uint64_t DrawCode(double x, double scale, uint64_t draw) {
  const uint64_t keep = static_cast<double>(draw) < std::abs(x) * scale;
  const uint64_t negative = std::signbit(x);
  return keep | ((keep & negative) << 1);
}

// Draws the symbols of one block (-1, 0, +1) into sym; `first` is the block's first element in
// the message. REQUIRES: norm > 0.
template <class Src>
void DrawSymbols(const double* x, int64_t first, int64_t n, float norm, Src& src, int8_t* sym) {
  decltype(auto) local = LocalDraws(src);
  const double scale = Src::kOne / static_cast<double>(norm);
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t m = std::min(kDrawChunk, n - c);
    local.Prepare(first + c, m);
    for (int64_t k = 0; k < m; ++k) {
      const uint64_t code = DrawCode(x[c + k], scale, local.Next(k));
      sym[c + k] = static_cast<int8_t>(static_cast<int>(code & 1) - static_cast<int>(code & 2));
    }
  }
  Commit(src, local);
}

// Draws in memory: the same symbols from the vectorised kernel, a chunk at a time.
template <KernelDraws Src>
void DrawSymbols(const double* x, int64_t first, int64_t n, float norm, Src& src, int8_t* sym) {
  const double scale = Src::kOne / static_cast<double>(norm);
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t m = std::min(kDrawChunk, n - c);
    src.Prepare(first + c, m);
    counter_kernels::TernarySymbols(x + c, src.data(), m, scale, sym + c);
  }
}

// The block's symbols as masks (ternary_masks.h), from the same draws as DrawSymbols; the word
// after the last is zeroed (the packed writer's padding). sym: scratch for n symbols.
// REQUIRES: norm > 0; keep and neg hold ternary_masks::MaskWords(n) words.
template <class Src>
void DrawMasks(const double* x, int64_t first, int64_t n, float norm, Src& src, int8_t* sym,
               uint64_t* keep, uint64_t* neg) {
  static_assert(kDrawChunk % 64 == 0);
  if constexpr (KernelDraws<Src>) {
    const double scale = Src::kOne / static_cast<double>(norm);
    for (int64_t c = 0; c < n; c += kDrawChunk) {
      const int64_t m = std::min(kDrawChunk, n - c);
      src.Prepare(first + c, m);
      ternary_masks::DrawMasks(x + c, src.data(), m, scale, keep + c / 64, neg + c / 64);
    }
  } else {
    DrawSymbols(x, first, n, norm, src, sym);
    ternary_masks::SymbolMasks(sym, n, keep, neg);
  }
  keep[(n + 63) / 64] = neg[(n + 63) / 64] = 0;
}

// The decoded values of masked symbols: norm, -norm or 0.
void PutMaskValues(const uint64_t* keep, const uint64_t* neg, int64_t n, double norm,
                   const DecodeTarget& target) {
  const double value[3] = {0.0, norm, -norm};
  for (int64_t j = 0; j < n; ++j) {
    target.Put(j, value[((keep[j / 64] >> (j % 64)) & 1) + ((neg[j / 64] >> (j % 64)) & 1)]);
  }
}

// The decoded values of one block's symbols, as every decoder below produces them.
void PutSymbols(const int8_t* sym, int64_t n, double norm, const DecodeTarget& target) {
  const double value[3] = {-norm, 0.0, norm};
  for (int64_t j = 0; j < n; ++j) target.Put(j, value[sym[j] + 1]);
}

// fixed2 fast path: draws and packs 32 codes per 64-bit field (a draw chunk holds 8 fields);
// with a target, also delivers the decoded values (as GetFixed2 gives them). REQUIRES: norm > 0.
template <bool kDecoded, class Src>
void DrawFixed2(const double* x, int64_t first, int64_t n, float norm, Src& src, BitWriter& w,
                const DecodeTarget* target) {
  static_assert(kDrawChunk % 32 == 0);
  decltype(auto) local = LocalDraws(src);
  const double scale = Src::kOne / static_cast<double>(norm);
  const double value[4] = {0.0, norm, 0.0, -static_cast<double>(norm)};
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, n - c);
    local.Prepare(first + c, cm);
    for (int64_t j = 0; j < cm; j += 32) {
      const int m = static_cast<int>(std::min<int64_t>(32, cm - j));
      uint64_t word = 0;
      for (int k = 0; k < m; ++k)
        word |= DrawCode(x[c + j + k], scale, local.Next(j + k)) << (2 * k);
      w.Put(word, 2 * m);
      if constexpr (kDecoded) {
        for (int k = 0; k < m; ++k) target->Put(c + j + k, value[(word >> (2 * k)) & 3]);
      }
    }
  }
  Commit(src, local);
}

// Draws in memory: the fields straight from the vectorised kernel (the same fields as above).
template <bool kDecoded, KernelDraws Src>
void DrawFixed2(const double* x, int64_t first, int64_t n, float norm, Src& src, BitWriter& w,
                const DecodeTarget* target) {
  const double scale = Src::kOne / static_cast<double>(norm);
  const double value[4] = {0.0, norm, 0.0, -static_cast<double>(norm)};
  uint64_t words[kDrawChunk / 32];
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, n - c);
    src.Prepare(first + c, cm);
    counter_kernels::TernaryCodes(x + c, src.data(), cm, scale, words);
    for (int64_t j = 0; j < cm; j += 32) {
      const int m = static_cast<int>(std::min<int64_t>(32, cm - j));
      const uint64_t word = words[j / 32];
      w.Put(word, 2 * m);
      if constexpr (kDecoded) {
        for (int k = 0; k < m; ++k) target->Put(c + j + k, value[(word >> (2 * k)) & 3]);
      }
    }
  }
}

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
      block_(config.block) {
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
  w.Reserve(coding_ == Coding::kFixed2 ? 32 * nb + 2 * d : 32 * nb + d);
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const double* xb = x.data() + begin;
    const float norm = CheckedBlockNorm(Name(), p_inf_, xb, n, x);
    if (coding_ == Coding::kEntropy) norms[static_cast<size_t>(b)] = norm;
    int8_t* s = coding_ == Coding::kEntropy ? sym.get() + begin : sym.get();
    w.PutFloat(norm);
    const std::optional<DecodeTarget> block_target =
        target == nullptr ? std::nullopt : std::optional(target->Segment(begin, n));
    if (norm == 0.0f) {  // an all-zero block draws nothing
      if (block_target) block_target->PutZeros(0, n);
      if (coding_ == Coding::kFixed2) w.PutZeros(2 * n);
      if (coding_ == Coding::kPacked) w.PutZeros(8 * ((n + 4) / 5));  // bytes of zero trits
      continue;  // sparse and entropy send only the norm
    }
    if (coding_ == Coding::kFixed2) {
      if (block_target) {
        DrawFixed2<true>(xb, begin, n, norm, src, w, &*block_target);
      } else {
        DrawFixed2<false>(xb, begin, n, norm, src, w, nullptr);
      }
      continue;
    }
    if (masked) {
      DrawMasks(xb, begin, n, norm, src, s, keep.data(), neg.data());
      if (block_target) PutMaskValues(keep.data(), neg.data(), n, norm, *block_target);
      if (coding_ == Coding::kPacked) ternary_masks::PutPacked(keep.data(), neg.data(), n, w);
      if (coding_ == Coding::kSparse) ternary_masks::PutSparse(keep.data(), neg.data(), n, w);
      continue;
    }
    DrawSymbols(xb, begin, n, norm, src, s);  // kEntropy: coded after all norms
    if (block_target) PutSymbols(s, n, norm, *block_target);
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
