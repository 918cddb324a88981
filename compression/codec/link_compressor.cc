#include "compression/codec/link_compressor.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "base/check.h"
#include "compression/codec/framework_wire.h"
#include "compression/registry.h"

namespace commsim {
namespace {

void LabelMessage(Message& m, std::string_view codec, int64_t elements) {
  m.codec = codec;
  m.elements = elements;
}

// A stamped message (no parts) in the framework's layout when `framework` is set.
Message Shipped(Message m, bool framework) { return framework ? ToFrameworkWire(m) : m; }

}  // namespace

namespace {

const Compressor& NonNull(const std::unique_ptr<Compressor>& c) {
  COMMSIM_CHECK(c != nullptr, "LinkCompressor needs a compressor");
  return *c;
}

}  // namespace

// The name and unbiasedness are the wrapped compressor's (its name outlives it: inner_ owns it).
LinkCompressor::LinkCompressor(std::unique_ptr<Compressor> inner)
    : Compressor(NonNull(inner).Name(), NonNull(inner).unbiased()), inner_(std::move(inner)) {}

Message LinkCompressor::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                                   const DecodeTarget* target) const {
  if (buckets_.empty()) {
    Message m =
        target == nullptr ? inner_->Encode(x, rng) : inner_->EncodeWithDecoded(x, rng, *target);
    LabelMessage(m, inner_->Name(), x.size());
    return Shipped(std::move(m), framework_wire_);
  }
  Message m;
  int64_t nonzeros = 0;
  m.parts.reserve(buckets_.size());
  for (const Segment& s : buckets_) {
    COMMSIM_CHECK(s.offset + s.size <= x.size(), "bucket [{}, {}) beyond d = {}", s.offset,
                  s.offset + s.size, x.size());
    const auto segment = x.segment(s.offset, s.size);
    Message part = target == nullptr
                       ? inner_->Encode(segment, rng)
                       : inner_->EncodeWithDecoded(segment, rng, target->Segment(s.offset, s.size));
    LabelMessage(part, inner_->Name(), s.size);
    part = Shipped(std::move(part), framework_wire_);
    m.payload_bits += part.payload_bits;
    nonzeros += part.coded_values();
    m.parts.push_back(std::move(part));
  }
  LabelMessage(m, inner_->Name(), x.size());
  m.nonzeros = nonzeros;
  return m;
}

namespace {

// Stamps the message of a wrapped ChunkEncoder.
class StampedChunks final : public ChunkEncoder {
 public:
  StampedChunks(std::unique_ptr<ChunkEncoder> inner, std::string_view codec, int64_t d)
      : inner_(std::move(inner)), codec_(codec), d_(d) {}
  void Put(const double* values, int64_t n) override { inner_->Put(values, n); }
  bool any_order() const override { return inner_->any_order(); }
  void PutAt(int64_t begin, const double* values, int64_t n) override {
    inner_->PutAt(begin, values, n);
  }
  std::optional<Message> Finish() override {
    std::optional<Message> m = inner_->Finish();
    if (m) LabelMessage(*m, codec_, d_);
    return m;
  }

 private:
  std::unique_ptr<ChunkEncoder> inner_;
  std::string_view codec_;
  int64_t d_;
};

// The wrapped compressor's encoder `inner` stamped (none: none).
std::unique_ptr<ChunkEncoder> Stamped(std::unique_ptr<ChunkEncoder> inner, std::string_view codec,
                                      int64_t d) {
  if (inner == nullptr) return nullptr;
  return std::make_unique<StampedChunks>(std::move(inner), codec, d);
}

}  // namespace

std::unique_ptr<ChunkEncoder> LinkCompressor::ChunkEncode(int64_t d,
                                                          const DecodeTarget* decoded) const {
  if (!buckets_.empty() || framework_wire_) return nullptr;
  return Stamped(inner_->ChunkEncode(d, decoded), inner_->Name(), d);
}

std::unique_ptr<ChunkEncoder> LinkCompressor::ChunkEncodeWithRng(
    int64_t d, Rng& rng, const DecodeTarget* decoded) const {
  if (!buckets_.empty() || framework_wire_) return nullptr;
  return Stamped(inner_->ChunkEncodeWithRng(d, rng, decoded), inner_->Name(), d);
}

void LinkCompressor::DecodeInto(const Message& message, const DecodeTarget& target) const {
  const auto decode = [this](const Message& m, const DecodeTarget& t) {
    if (framework_wire_) {
      inner_->DecodeInto(FromFrameworkWire(m), t);
    } else {
      inner_->DecodeInto(m, t);
    }
  };
  if (buckets_.empty() && message.parts.empty()) {
    decode(message, target);
    return;
  }
  if (message.parts.size() != buckets_.size()) {
    throw DecodeError(fmt::format("{}: a message of {} buckets, expected {}", inner_->Name(),
                                  message.parts.size(), buckets_.size()));
  }
  for (size_t b = 0; b < buckets_.size(); ++b) {
    decode(message.parts[b], target.Segment(buckets_[b].offset, buckets_[b].size));
  }
}

// Whether the messages are whole (no buckets here, no parts there): the wrapped compressor's.
bool LinkCompressor::Whole(std::span<const Message* const> messages) const {
  return buckets_.empty() && !framework_wire_ &&
         std::all_of(messages.begin(), messages.end(),
                     [](const Message* m) { return m->parts.empty(); });
}

void LinkCompressor::DecodeSumInto(std::span<const Message* const> messages,
                                   const DecodeTarget& target) const {
  if (Whole(messages)) {
    inner_->DecodeSumInto(messages, target);
    return;
  }
  Compressor::DecodeSumInto(messages, target);
}

void LinkCompressor::DecodeSumFromZero(std::span<const Message* const> messages,
                                       Eigen::Ref<Eigen::VectorXd> scratch,
                                       const SumChunkDone& done) const {
  if (Whole(messages)) {
    inner_->DecodeSumFromZero(messages, scratch, done);
    return;
  }
  Compressor::DecodeSumFromZero(messages, scratch, done);
}

double LinkCompressor::ErrorFactor(int64_t dim) const {
  if (buckets_.empty()) return inner_->ErrorFactor(dim);
  double factor = 0;
  for (const Segment& s : buckets_) factor = std::max(factor, inner_->ErrorFactor(s.size));
  return factor;
}

Expectation LinkCompressor::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  if (buckets_.empty()) return inner_->Expected(x);
  Expectation total;
  for (const Segment& s : buckets_) {
    const Expectation e = inner_->Expected(x.segment(s.offset, s.size));
    total.payload_bits += e.payload_bits;
    total.squared_error += e.squared_error;
    total.nonzeros += e.nonzeros;
    total.bits_formula = e.bits_formula;
  }
  total.bits_formula =
      fmt::format("sum over {} buckets of: {}", buckets_.size(), total.bits_formula);
  return total;
}

std::unique_ptr<LinkCompressor> MakeLinkCompressor(const ComponentSpec& spec) {
  return std::make_unique<LinkCompressor>(CompressorRegistry().Make(spec));
}

}  // namespace commsim
