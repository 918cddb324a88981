// LinkCompressor: a registered compressor as an algorithm's link uses it (uplink, downlink, a
// node's gossip): it stamps every message with what the codec time model needs (the compressor's
// registry name and the number of elements, compression/message.h) and, once buckets are set,
// compresses each bucket separately.
//
// Buckets (layer-wise overlap, models/buckets.h): contiguous segments of the vector, in send
// order. Encode(x) then encodes x's segment of each bucket with the wrapped compressor, one after
// the other with the same Rng, into one Message whose `parts` are the buckets' messages (each a
// network message of its own); Decode(m) decodes each part into its segment. So a top-k keeps the
// k-fraction of every bucket, a norm-scaled quantizer uses every bucket's own norms, and a fixed
// k keeps k per bucket. Without buckets (the default) it is the wrapped compressor exactly: the
// same bits, the same values, the same Rng draws.
// Why a wrapper and not a PsRule change: every rule already compresses through its link
// compressors, so per-bucket compression needs no change to any rule's mathematics or to the
// PsRule interface; a rule only builds its compressors with PsRule::MakeLink.
// ErrorFactor(d) with buckets is the largest of the buckets' factors (the bound holds bucket by
// bucket, so it holds for the sum); Expected(x) sums the buckets' expectations.
#ifndef COMMSIM_COMPRESSION_CODEC_LINK_COMPRESSOR_H_
#define COMMSIM_COMPRESSION_CODEC_LINK_COMPRESSOR_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

// A contiguous run of a parameter vector: elements [offset, offset + size).
struct Segment {
  int64_t offset = 0;
  int64_t size = 0;
};

class LinkCompressor final : public Compressor {
 public:
  explicit LinkCompressor(std::unique_ptr<Compressor> inner);
  // Buckets in send order; empty = the whole vector in one message. REQUIRES: the segments are
  // disjoint, non-empty, and cover [0, d) of every vector later encoded or decoded.
  void set_buckets(std::vector<Segment> buckets) { buckets_ = std::move(buckets); }
  const std::vector<Segment>& buckets() const { return buckets_; }
  // Ship every message (every part) in the framework's layout (framework_wire.h) instead of the
  // exact encoding. REQUIRES: FrameworkWireBits knows the wrapped compressor.
  void set_framework_wire(bool on) { framework_wire_ = on; }

  COMMSIM_COMPRESSOR_MEMBERS;
  // The wrapped compressor's, its message stamped; none with buckets.
  std::unique_ptr<ChunkEncoder> ChunkEncode(int64_t d, const DecodeTarget* decoded) const override;
  std::unique_ptr<ChunkEncoder> ChunkEncodeWithRng(int64_t d, Rng& rng,
                                                   const DecodeTarget* decoded) const override;
  // The wrapped compressor's without buckets.
  void DecodeSumInto(std::span<const Message* const> messages,
                     const DecodeTarget& target) const override;
  void DecodeSumFromZero(std::span<const Message* const> messages,
                         Eigen::Ref<Eigen::VectorXd> scratch,
                         const SumChunkDone& done) const override;

 private:
  // Encode with each bucket's decoded values delivered to its segment of `target` (nullptr: none).
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;

  bool Whole(std::span<const Message* const> messages) const;

  std::unique_ptr<Compressor> inner_;
  std::vector<Segment> buckets_;
  bool framework_wire_ = false;
};

// The registered compressor `spec` wrapped in a LinkCompressor.
std::unique_ptr<LinkCompressor> MakeLinkCompressor(const ComponentSpec& spec);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODEC_LINK_COMPRESSOR_H_
