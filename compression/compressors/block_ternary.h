// block_ternary: DIANA/DORE "block p-quantization" (docs/algorithms.md, Compressors).
//
// Splits x into blocks of `block` elements (the last may be shorter). Per block B with norm
// n_B = ||x_B||_p (p = 2 or inf) rounded up to fp32: Q(x)_j = n_B * sign(x_j) * xi_j with
// xi_j ~ Bernoulli(|x_j| / n_B) drawn as [ (rng() >> 11) < |x_j| * (2^53 / n_B) ]; an all-zero
// block draws nothing and decodes to zeros. Unbiased. With rng = "counter" (uniform_draws.h) the
// draw is element j's 32-bit counter draw u_j and xi_j = [ u_j < |x_j| * (2^32 / n_B) ], whose
// probability is within 2^-32 of |x_j| / n_B (a bias of at most 2^-32 n_B per element, far below
// the fp32 rounding of n_B itself); every message draws one key from the Rng.
// E||Q(x) - x||^2 = sum_B (||x_B||_1 n_B - ||x_B||_2^2) <= C ||x||^2, C = sqrt(b) - 1 (p = 2) or
// (sqrt(b) - 1) / 2 (p = inf).
// Payload per block: 32 bits (n_B) plus the symbols {-1, 0, +1} in the chosen coding:
//   fixed2  2 bits per element (00 = 0, 01 = +1, 11 = -1): exactly 32 ceil(d/b) + 2d in total
//   packed  5 trits per byte: 8 ceil(|B| / 5) bits per block
//   sparse  nonzero count in ceil(log2(|B|+1)) bits, then per nonzero a sign bit and its index in
//           ceil(log2 |B|) bits (blocks with n_B = 0 send only the norm)
//   entropy all norms first, then the symbols of the blocks with n_B > 0 through one adaptive
//           arithmetic coder (compression/coding/arithmetic.h)
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_H_

#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/uniform_draws.h"

namespace commsim {

struct BlockTernaryConfig final : ConfigBase<BlockTernaryConfig> {
  std::string p = "inf";  // "2" or "inf"
  int64_t block = 256;
  std::string coding = "fixed2";  // fixed2 | packed | sparse | entropy
  std::string rng = "stream";     // stream | counter (uniform_draws.h)
  void Describe(ParamVisitor& v) override;
};

class BlockTernary final : public DrawingCompressor<BlockTernary> {
 public:
  enum class Coding { kFixed2, kPacked, kSparse, kEntropy };
  explicit BlockTernary(const BlockTernaryConfig& config);
  COMMSIM_COMPRESSOR_MEMBERS;
  // fixed2, packed and sparse: the messages added block by block in one pass over the sum
  // (block_ternary_sum.h), the bits of one DecodeInto each; entropy: the default.
  void DecodeSumInto(std::span<const Message* const> messages,
                     const DecodeTarget& target) const override;
  void DecodeSumFromZero(std::span<const Message* const> messages,
                         Eigen::Ref<Eigen::VectorXd> scratch,
                         const SumChunkDone& done) const override;
  // fixed2, packed and sparse, blocks of at most kMaxChunkBlock elements (a block cut by the
  // chunks is kept until it is whole): Encode(x, rng)'s message, draws and decoded values, block
  // by block as the chunks come (block_ternary_chunks.cc); entropy (whose symbols follow all
  // norms) and longer blocks: nullptr.
  std::unique_ptr<ChunkEncoder> ChunkEncodeWithRng(int64_t d, Rng& rng,
                                                   const DecodeTarget* decoded) const override;
  static constexpr int64_t kMaxChunkBlock = int64_t{1} << 16;

 private:
  friend class DrawingCompressor<BlockTernary>;
  template <class Src>
  Message EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                     const DecodeTarget* target) const;

  bool p_inf_;
  int64_t block_;
  Coding coding_;
  bool counter_;  // rng = "counter"
};

extern template class DrawingCompressor<BlockTernary>;

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_H_
