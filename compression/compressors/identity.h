// identity: sends every value at full precision (fp32 by default, fp64 with precision 64).
//
// Biased only by the fp32 rounding (treated as unbiased). Payload: exactly 32d (or 64d) bits.
// Values beyond the fp32 range are a UserError rather than a silent infinity.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_IDENTITY_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_IDENTITY_H_

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct IdentityConfig final : ConfigBase<IdentityConfig> {
  int64_t precision = 32;  // bits per value: 32 or 64
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

class Identity final : public Compressor {
 public:
  explicit Identity(const IdentityConfig& config)
      : Compressor("identity", /*unbiased=*/true), config_(config) {}
  COMMSIM_COMPRESSOR_MEMBERS;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  std::unique_ptr<ChunkEncoder> ChunkEncode(int64_t d, const DecodeTarget* decoded) const override;
  void DecodeSumInto(std::span<const Message* const> messages,
                     const DecodeTarget& out) const override;
  void DecodeSumFromZero(std::span<const Message* const> messages,
                         Eigen::Ref<Eigen::VectorXd> scratch,
                         const SumChunkDone& done) const override;

  IdentityConfig config_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_IDENTITY_H_
