#include "compression/compressors/identity.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "base/check.h"
#include "compression/coding/bit_reader.h"
#include "compression/compressors/fp32_stores.h"
#include "compression/compressors/identity_kernels.h"
#include "compression/compressors/wire.h"

namespace commsim {

void IdentityConfig::Describe(ParamVisitor& v) {
  v.Int("precision", precision, Range::Closed(32, 64), "bits per value on the wire: 32 or 64");
}

void IdentityConfig::Validate(ParamProblems& problems) const {
  if (precision != 32 && precision != 64) {
    problems.Add("precision", "must be 32 or 64, got " + std::to_string(precision));
  }
}

namespace {

// A message of d values at `precision` bits, its words unwritten but for the last (zero, so the
// bits past payload_bits of an odd fp32 count are zero).
Message SizedMessage(int64_t d, int64_t precision) {
  Message m;
  m.payload_bits = d * precision;
  m.words.resize(static_cast<size_t>((m.payload_bits + 63) / 64), boost::container::default_init);
  if (!m.words.empty()) m.words.back() = 0;
  return m;
}

// Writes p[0, n) as fp64 words from words[0]; returns the OR of their NonFiniteFlag (bit 63).
uint64_t PutFp64(const double* p, int64_t n, uint64_t* words) {
  uint64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    words[i] = std::bit_cast<uint64_t>(p[i]);
    bad |= NonFiniteFlag(p[i]);
  }
  return bad;
}

// Identity's ChunkEncoder: each chunk converted straight into the message words (fp32: with
// streaming stores for a message far beyond the caches, fp32_stores.h), its decoded values
// delivered to the target (if any) in the same call; in any order (PutAt). The message is
// allocated at the first put (compressor.h), so an encoder made ahead of its round holds no words.
class IdentityChunks final : public ChunkEncoder {
 public:
  IdentityChunks(int64_t d, int64_t precision, const DecodeTarget* decoded)
      : d_(d), precision_(precision), stream_(StreamStores(d * precision / 8)) {
    if (decoded != nullptr) decoded_.emplace(*decoded);
  }
  void Put(const double* values, int64_t n) override {
    PutAt(next_, values, n);
    next_ += n;
  }
  bool any_order() const override { return true; }
  void PutAt(int64_t begin, const double* values, int64_t n) override {
    COMMSIM_CHECK(begin >= 0 && n >= 0 && begin + n <= d_ && put_ + n <= d_,
                  "values [{}, {}) put into an encoder of {} holding {}", begin, begin + n, d_,
                  put_);
    if (put_ == 0) m_ = SizedMessage(d_, precision_);
    std::optional<DecodeTarget> target;
    if (decoded_) target.emplace(decoded_->Segment(begin, n));
    if (precision_ == 64) {
      bad_ |= PutFp64(values, n, m_.words.data() + begin) >> 63;
      if (target) {
        for (int64_t i = 0; i < n; ++i) target->Put(i, values[i]);
      }
    } else {
      unsigned char* bytes = reinterpret_cast<unsigned char*>(m_.words.data()) + 4 * begin;
      if (target && target->plain()) {
        bad_ |= PutFp32Decoded(values, n, bytes, target->out().data(), stream_) >> 31;
      } else {
        bad_ |= PutFp32(values, n, bytes, stream_) >> 31;
        if (target) {
          for (int64_t i = 0; i < n; ++i) target->Put(i, static_cast<float>(values[i]));
        }
      }
    }
    put_ += n;
  }
  std::optional<Message> Finish() override {
    COMMSIM_CHECK(put_ == d_, "{} values put into an encoder of {}", put_, d_);
    if (d_ == 0) m_ = SizedMessage(0, precision_);
    if (bad_ != 0) return std::nullopt;
    return std::move(m_);
  }

 private:
  int64_t d_, precision_, next_ = 0, put_ = 0;  // next_: Put's position; put_: values put
  bool stream_;
  std::optional<DecodeTarget> decoded_;
  uint64_t bad_ = 0;
  Message m_;
};

}  // namespace

std::unique_ptr<ChunkEncoder> Identity::ChunkEncode(int64_t d, const DecodeTarget* decoded) const {
  COMMSIM_CHECK(decoded == nullptr || decoded->size() == d, "decode target of size {} for d = {}",
                decoded->size(), d);
  return std::make_unique<IdentityChunks>(d, config_.precision, decoded);
}

// One pass: converts, writes the words directly, checks and (with a target) delivers the decoded
// values; at 32 bits a plain target is written in the same pass (so on a NonFiniteError it holds
// decoded values, as compressor.h allows). A value that is not finite, or not finite in fp32,
// fails after the pass with the same error as a check up front: RequireFinite names the first
// NaN/Inf, else the first value beyond fp32.
Message Identity::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                             const DecodeTarget* target) const {
  const Eigen::Index d = x.size();
  const double* p = x.data();
  Message m = SizedMessage(d, config_.precision);
  if (config_.precision == 64) {
    if ((PutFp64(p, d, m.words.data()) >> 63) != 0) RequireFinite(Name(), x);
    if (target != nullptr) {
      for (Eigen::Index i = 0; i < d; ++i) target->Put(i, p[i]);
    }
    return m;
  }
  auto* bytes = reinterpret_cast<unsigned char*>(m.words.data());
  const bool stream = StreamStores(4 * d);
  const bool fused = target != nullptr && target->plain();
  const uint32_t bad = fused ? PutFp32Decoded(p, d, bytes, target->out().data(), stream)
                             : PutFp32(p, d, bytes, stream);
  if ((bad >> 31) != 0) {
    RequireFinite(Name(), x);
    for (Eigen::Index j = 0; j < d; ++j) Fp32Nearest(Name(), x[j]);  // throws at the first
  }
  if (target != nullptr && !fused) {
    for (Eigen::Index i = 0; i < d; ++i) target->Put(i, static_cast<float>(p[i]));
  }
  return m;
}

namespace {

// Value i of a well-formed message's words (precision 64: one per word; 32: two per word, the
// first in the low half, which is the floats in order in memory, little-endian as the encoder
// writes them): byte copies, which the compiler turns into vector loads.
template <int kPrecision>
inline double WireValue(const uint64_t* words, Eigen::Index i) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(words);
  if constexpr (kPrecision == 64) {
    double v;
    std::memcpy(&v, bytes + 8 * i, sizeof v);
    return v;
  }
  float f;
  std::memcpy(&f, bytes + 4 * i, sizeof f);
  return static_cast<double>(f);
}

// The values of a well-formed message into `out`; returns false when one is not finite. One loop
// per kind of target, so each vectorises.
template <int kPrecision>
bool DecodeWords(const uint64_t* words, const DecodeTarget& out) {
  const Eigen::Index d = out.size();
  uint64_t bad = 0;
  if (out.plain()) {
    double* o = out.out().data();
    for (Eigen::Index i = 0; i < d; ++i) {
      o[i] = WireValue<kPrecision>(words, i);
      bad |= NonFiniteFlag(o[i]);
    }
  } else if (out.accumulates()) {  // the common server case: sum += weight * v
    double* o = out.out().data();
    const double weight = out.weight();
    for (Eigen::Index i = 0; i < d; ++i) {
      const double v = WireValue<kPrecision>(words, i);
      bad |= NonFiniteFlag(v);
      o[i] += weight * v;
    }
  } else {
    for (Eigen::Index i = 0; i < d; ++i) {
      const double v = WireValue<kPrecision>(words, i);
      bad |= NonFiniteFlag(v);
      out.Put(i, v);
    }
  }
  return (bad >> 63) == 0;
}

// A hint: asks the memory system for values [c + 2n, c + 3n) (clamped to d) of a vector of d
// values of kBits bits at p, so that their reads overlap the work on chunk c. No effect on any
// result.
template <int kBits>
void PrefetchChunkAfterNext(const void* p, Eigen::Index d, Eigen::Index c, Eigen::Index n) {
  const auto* bytes = static_cast<const char*>(p);
  const Eigen::Index end = std::min(d, c + 3 * n) * kBits / 8;
  for (Eigen::Index b = (c + 2 * n) * kBits / 8; b < end; b += 64) __builtin_prefetch(bytes + b);
}

constexpr Eigen::Index kSumChunk = 512;

// Over elements [c, end): o[i - c] += weight * message_i for each message in turn; ORs the
// values' NonFiniteFlag into *bad.
template <int kPrecision>
void AddChunk(std::span<const uint64_t* const> messages, Eigen::Index d, Eigen::Index c,
              Eigen::Index end, double* o, double weight, uint64_t* bad) {
  uint64_t flags = 0;
  for (const uint64_t* words : messages) {
    PrefetchChunkAfterNext<kPrecision>(words, d, c, kSumChunk);
    const auto* bytes = reinterpret_cast<const unsigned char*>(words) + kPrecision / 8 * c;
    flags |= kPrecision == 32 ? identity_kernels::AddWeighted32(bytes, end - c, weight, o)
                              : identity_kernels::AddWeighted64(bytes, end - c, weight, o);
  }
  *bad |= flags;
}

// Well-formed messages into an accumulating target, kSumChunk elements at a time: over a chunk,
// out += weight * message for each message in turn, so each element gets the additions of one
// DecodeWords pass per message, in the same order (the same bits), while the chunk of the sum
// stays in the L1 cache: the sum is read and written once for all the messages. False when a
// value is not finite.
template <int kPrecision>
bool AccumulateRun(std::span<const uint64_t* const> messages, const DecodeTarget& out) {
  const Eigen::Index d = out.size();
  double* o = out.out().data();
  uint64_t bad = 0;
  for (Eigen::Index c = 0; c < d; c += kSumChunk) {
    PrefetchChunkAfterNext<64>(o, d, c, kSumChunk);
    AddChunk<kPrecision>(messages, d, c, std::min(d, c + kSumChunk), o + c, out.weight(), &bad);
  }
  return (bad >> 63) == 0;
}

// The same sums from zero (weight 1), each chunk summed in a buffer of its own and handed to
// `done` unless a value so far was not finite (then false at once): no pass over a d-vector.
template <int kPrecision>
bool SumChunks(std::span<const uint64_t* const> messages, Eigen::Index d,
               const Compressor::SumChunkDone& done) {
  std::array<double, kSumChunk> chunk;
  uint64_t bad = 0;
  for (Eigen::Index c = 0; c < d; c += kSumChunk) {
    const Eigen::Index end = std::min(d, c + kSumChunk);
    std::fill(chunk.begin(), chunk.end(), 0.0);
    AddChunk<kPrecision>(messages, d, c, end, chunk.data(), 1.0, &bad);
    if ((bad >> 63) != 0) return false;
    done(c, end, chunk.data());
  }
  return true;
}

// The words of each message when every one holds exactly `bits` payload bits (BitReader checks
// that its words hold them), else empty.
std::vector<const uint64_t*> WellFormedWords(std::span<const Message* const> messages,
                                             int64_t bits) {
  std::vector<const uint64_t*> words;
  for (const Message* m : messages) {
    if (m->payload_bits != bits) return {};
    BitReader check(*m);
    words.push_back(m->words.data());
  }
  return words;
}

}  // namespace

void Identity::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);  // checks that the words hold payload_bits
  const Eigen::Index d = out.size();
  bool finite = true;
  if (message.payload_bits == d * config_.precision) {  // well formed: read the words directly
    finite = config_.precision == 64 ? DecodeWords<64>(message.words.data(), out)
                                     : DecodeWords<32>(message.words.data(), out);
  } else {  // a stream too short or too long: the reader reports where
    for (Eigen::Index i = 0; i < d; ++i) {
      out.Put(i, config_.precision == 64 ? r.GetDouble() : r.GetFloat());
    }
    r.ExpectEnd();
  }
  if (!finite) throw DecodeError("corrupted message: non-finite value");
}

// The fp32 rounding on the wire is left out of ErrorFactor (compressor.h): the identity is exact.
double Identity::ErrorFactor(int64_t) const { return 0.0; }

// Fused for well-formed messages into an accumulating target (a server's sum); a corrupted
// value throws the same DecodeError, after all of them are added.
void Identity::DecodeSumInto(std::span<const Message* const> messages,
                             const DecodeTarget& out) const {
  const std::vector<const uint64_t*> words =
      out.accumulates() ? WellFormedWords(messages, out.size() * config_.precision)
                        : std::vector<const uint64_t*>();
  if (words.empty()) {
    Compressor::DecodeSumInto(messages, out);
    return;
  }
  const bool finite =
      config_.precision == 64 ? AccumulateRun<64>(words, out) : AccumulateRun<32>(words, out);
  if (!finite) throw DecodeError("corrupted message: non-finite value");
}

// The same pass, each chunk summed in a buffer of its own and handed over when complete.
void Identity::DecodeSumFromZero(std::span<const Message* const> messages,
                                 Eigen::Ref<Eigen::VectorXd> scratch,
                                 const SumChunkDone& done) const {
  const std::vector<const uint64_t*> words =
      WellFormedWords(messages, scratch.size() * config_.precision);
  if (words.empty()) {
    Compressor::DecodeSumFromZero(messages, scratch, done);
    return;
  }
  const bool finite = config_.precision == 64 ? SumChunks<64>(words, scratch.size(), done)
                                              : SumChunks<32>(words, scratch.size(), done);
  if (!finite) throw DecodeError("corrupted message: non-finite value");
}

Expectation Identity::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  Expectation e;
  e.payload_bits = static_cast<double>(config_.precision) * static_cast<double>(x.size());
  e.bits_formula = config_.precision == 64 ? "64d (exact)" : "32d (exact)";
  double err = 0.0;
  if (config_.precision == 32) {
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double q = static_cast<float>(x[i]);
      err += (q - x[i]) * (q - x[i]);
    }
  }
  e.squared_error = err;
  e.nonzeros = static_cast<double>((x.array() != 0.0).count());
  return e;
}

}  // namespace commsim
