// BlockTernary::ChunkEncodeWithRng (block_ternary.h): the whole-vector encoder's blocks
// (block_ternary_blocks.h) encoded as the chunks come. Each whole block is encoded straight from
// the chunk (a block cut by a chunk boundary is copied until it is whole), its draws taken from
// the same source the whole-vector encoder would use (WithDraws, uniform_draws.h: a CounterDraws
// keyed by one draw of rng, else lane draws from kLaneDrawsMinDim elements on, else the plain
// stream), so the blocks draw in the same order and the message, the decoded values and rng's
// final state are Encode's.
#include <algorithm>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "base/check.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/block_ternary_blocks.h"
#include "compression/compressors/ternary_masks.h"
#include "compression/compressors/uniform_draws.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {

// What Encode sends as a block's norm, or nullopt where Encode throws (a NaN or Inf in the block,
// or a norm beyond fp32): CheckedBlockNorm on the block alone, which throws exactly then.
std::optional<float> SendableNorm(std::string_view name, bool p_inf, const double* v, int64_t n) {
  try {
    return CheckedBlockNorm(name, p_inf, v, n, Eigen::Map<const Eigen::VectorXd>(v, n));
  } catch (const NonFiniteError&) {
    return std::nullopt;
  }
}

struct TernaryShape {
  std::string_view name;
  bool p_inf;
  int64_t block;
  BlockTernary::Coding coding;
};

// Made: the draw source from rng and every buffer but the message's (a caller makes encoders
// ahead of time, compressor.h); the message's words at the first Put or Finish.
template <class Src>
class TernaryChunks final : public ChunkEncoder {
 public:
  TernaryChunks(const TernaryShape& shape, int64_t d, Rng& rng, const DecodeTarget* decoded)
      : shape_(shape), d_(d), rng_(&rng), src_(Draws(rng)) {
    if (decoded != nullptr) target_.emplace(*decoded);
    const auto longest = static_cast<size_t>(std::min(shape_.block, d_));
    cut_.resize(longest);
    if (shape_.coding == BlockTernary::Coding::kFixed2) return;
    sym_.resize(longest);
    keep_.resize(static_cast<size_t>(ternary_masks::MaskWords(static_cast<int64_t>(longest))));
    neg_.resize(keep_.size());
  }

  void Put(const double* values, int64_t n) override {
    Reserve();
    while (n > 0) {
      COMMSIM_CHECK(pos_ < d_, "block_ternary: more than {} values put", d_);
      const int64_t size = std::min(shape_.block, d_ - pos_);  // the block at pos_
      if (held_ == 0 && n >= size) {
        Block(values, size);
        values += size;
        n -= size;
        continue;
      }
      const int64_t take = std::min(n, size - held_);
      std::copy(values, values + take, cut_.data() + held_);
      held_ += take;
      values += take;
      n -= take;
      if (held_ < size) return;
      held_ = 0;
      Block(cut_.data(), size);
    }
  }

  std::optional<Message> Finish() override {
    Reserve();
    COMMSIM_CHECK(failed_ || (pos_ == d_ && held_ == 0), "block_ternary: {} of {} values put",
                  pos_ + held_, d_);
    if (failed_) return std::nullopt;
    if constexpr (!std::is_same_v<Src, CounterDraws>) *rng_ = src_.rng();
    return w_.Finish();
  }

 private:
  // The source Encode(x, rng) would draw from (WithDraws): a counter source takes its key now.
  static auto Draws(Rng& rng) {
    if constexpr (std::is_same_v<Src, CounterDraws>) {
      return rng.NextU64();
    } else {
      return rng;
    }
  }

  // The message's words, once.
  void Reserve() {
    if (reserved_) return;
    reserved_ = true;
    w_.Reserve(ternary_blocks::ReserveBits(shape_.coding, d_, shape_.block));
  }

  // The block at pos_, of n values.
  void Block(const double* values, int64_t n) {
    const int64_t begin = pos_;
    pos_ += n;
    if (failed_) return;
    const std::optional<float> norm = SendableNorm(shape_.name, shape_.p_inf, values, n);
    if (!norm) {
      failed_ = true;
      return;
    }
    ternary_blocks::PutBlock(shape_.coding, values, begin, n, *norm, src_, w_,
                             target_ ? &*target_ : nullptr,
                             {sym_.data(), keep_.data(), neg_.data()});
  }

  TernaryShape shape_;
  int64_t d_;
  Rng* rng_;
  std::optional<DecodeTarget> target_;
  Src src_;
  BitWriter w_;
  bool reserved_ = false;
  std::vector<int8_t> sym_;
  std::vector<uint64_t> keep_, neg_;
  std::vector<double> cut_;  // the values of a block cut by a chunk boundary
  int64_t held_ = 0;         // how many of them
  int64_t pos_ = 0;          // the first element of the next block
  bool failed_ = false;      // a block Encode would reject: Finish declines
};

}  // namespace

std::unique_ptr<ChunkEncoder> BlockTernary::ChunkEncodeWithRng(int64_t d, Rng& rng,
                                                               const DecodeTarget* decoded) const {
  if (coding_ == Coding::kEntropy || std::min(block_, d) > kMaxChunkBlock) return nullptr;
  const TernaryShape shape{Name(), p_inf_, block_, coding_};
  if (counter_) return std::make_unique<TernaryChunks<CounterDraws>>(shape, d, rng, decoded);
  if (d >= kLaneDrawsMinDim) {
    return std::make_unique<TernaryChunks<LaneDraws>>(shape, d, rng, decoded);
  }
  return std::make_unique<TernaryChunks<StreamDraws>>(shape, d, rng, decoded);
}

}  // namespace commsim
