// hadamard: a random Hadamard rotation before another compressor (`inner`), as in FO-SGD
// (Stollenwerk & Jacques, arXiv:2405.11095, 2024), whose operator is
// {"name": "hadamard", "inner": {"name": "onebit"}} (the default).
//
// Encode x of dimension d: pad to n = 2^ceil(log2 d) with zeros (x~), draw a 64-bit seed from the
// Rng, y = H D x~ with D the seed's Rademacher signs and H the normalised Walsh-Hadamard
// transform (compression/coding/hadamard.h), and encode the n-vector y with `inner` (from the same
// Rng, after the seed). Decode: the inner decoder's n-vector y^, then D H y^ (H is its own
// inverse), of which the first d elements are the result.
// Wire: the seed (64 bits), then the inner message's bits. The paper derives the rotation from
// the iteration counter, known to every party, so it costs nothing there; commsim's decoders see
// only the message, so the seed travels.
// Payload: exactly 64 + the inner compressor's bits for n values (the padded length is what is
// sent and charged).
// Bias and error: unbiased exactly when the inner compressor is. H D is orthogonal and the
// padding adds no norm, so ||x^ - x|| <= ||y^ - y|| and ||y|| = ||x||: ErrorFactor(d) is the
// inner's ErrorFactor(n).
// Expected(x) is not a closed form here: the rotation spreads the inner's error over the padding
// too, so it is a Monte Carlo mean over K encodings with a fixed seed (K = 2^24 / n, clamped to
// [16, 16384]); the bits are 64 plus the inner's closed form averaged over those rotations.
// Guards: d <= 2^40 (n fits in memory and the index arithmetic); NaN/Inf input is a
// NonFiniteError naming `hadamard` and the index, and so is an inner range error (prefixed
// "hadamard: ").
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_HADAMARD_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_HADAMARD_H_

#include <memory>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct HadamardConfig final : ConfigBase<HadamardConfig> {
  HadamardConfig();  // inner: onebit with its defaults
  ComponentSpec inner;
  void Describe(ParamVisitor& v) override;
};

class Hadamard final : public Compressor {
 public:
  explicit Hadamard(const HadamardConfig& config);
  COMMSIM_COMPRESSOR_MEMBERS;
  static constexpr int64_t kMaxDim = int64_t{1} << 40;
  const Compressor& inner() const { return *inner_; }

 private:
  explicit Hadamard(std::unique_ptr<Compressor> inner);
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  // y = H D x~ for the seed's signs, y of size n >= x.size().
  static void Rotate(const Eigen::Ref<const Eigen::VectorXd>& x, uint64_t seed,
                     Eigen::Ref<Eigen::VectorXd> y);
  // The inverse: y <- D H y, then the first target.size() elements to the target.
  static void Unrotate(Eigen::Ref<Eigen::VectorXd> y, uint64_t seed, const DecodeTarget& target);

  std::unique_ptr<Compressor> inner_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_HADAMARD_H_
