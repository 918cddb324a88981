// Compressor: a pure compression operator with a real encoder and decoder.
//
// Contract for every implementation:
//   - Encode(x, rng) writes a real bitstream; Message::payload_bits is exactly the number of bits
//     written (the network charges payload_bits + the scenario's per-message header, never a
//     formula or sizeof).
//   - Decode(message, out) reconstructs the quantized vector bit for bit. Senders use the decoded
//     vector too, so sender and receiver hold identical values.
//   - Deterministic given the Rng state; the Rng is the only source of randomness.
//   - The dimension is context known to both sides (out.size()); it is never sent.
//   - EncodeWithDecoded(x, rng, target) is Encode(x, rng) that also delivers the decoded values
//     to `target` -- bit for bit what DecodeInto(message, target) gives -- so a sender that uses
//     its own decoded message needs no second decode pass (when it throws, some of target's
//     elements may hold decoded values already); DecodeInto(message, target) decodes straight
//     into an update (out += weight * decoded, e.g. a server's sum).
//   - One way to implement them: a compressor overrides EncodeImpl(x, rng, target), which serves
//     Encode (target null) and EncodeWithDecoded, and DecodeInto, which serves Decode. One
//     without a fused path delivers its decoded values with DeliverDecoded.
//   - Encode rejects NaN/Inf input, and values beyond the fp32 range of its wire format, with a
//     NonFiniteError naming the compressor (the run drivers turn it into status "diverged"); Decode
//     of a truncated or corrupted message throws DecodeError and never reads out of bounds.
//   - ChunkEncode(d, decoded) (optional; compressors that draw no random numbers): an encoder fed
//     x in order, chunk by chunk, whose Finish() is the message Encode(x, rng) gives (and, with a
//     target, whose Puts deliver EncodeWithDecoded's values), so a producer (a worker's gradient,
//     a server's step) is encoded without storing x or reading it again. Finish() declines
//     (nullopt) where Encode would throw; the caller then encodes the stored vector for the error
//     (a target may then hold some decoded values). An encoder allocates its message's words at
//     its first Put, not when made (callers make encoders ahead of time).
//   - ChunkEncodeWithRng(d, rng, decoded) (optional; any compressor): the same for Encode(x, rng)
//     with its random draws, from rng's state when the encoder is made (it may read rng then, so
//     that its buffers are allocated then too; the message's words still wait for the first
//     Put): the encoder draws exactly as Encode(x, rng) would, and when Finish() gives the
//     message, leaves rng in the state Encode(x, rng) leaves it in. Otherwise rng's state is
//     unspecified: a caller that falls back to Encode gives the encoder a copy. The default is
//     ChunkEncode(d, decoded) (a compressor that draws nothing leaves rng as it is).
//   - A Compressor object is immutable after construction and may be shared across threads.
//   - ErrorFactor(d) is a constant C with E||Q(x) - x||^2 <= C ||x||^2 for every x of dimension d
//     (omega for unbiased compressors, 1 - delta for contractive ones), ignoring the fp32 rounding
//     of values on the wire. Algorithms use it for theory defaults (DIANA: alpha <= 1/(omega+1)).
//     It is +infinity for a compressor whose error has no such bound (sign: Q(x) is +-scale
//     however small x is), which then owes neither Q(0) = 0 nor a relative error independent of
//     the scale of x; a caller that needs a finite C must check std::isfinite.
//   - Expected(x) gives closed forms for one input (expected payload bits, expected squared error,
//     expected nonzeros), printed by `commsim compress` next to the measured values.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_COMPRESSOR_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_COMPRESSOR_H_

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "base/rng.h"
#include "compression/message.h"

namespace commsim {

// A value an encoder cannot put on the wire (NaN, Inf, or beyond fp32). A UserError, so code
// outside a run (e.g. `commsim compress`) still reports it as bad input.
class NonFiniteError : public UserError {
 public:
  explicit NonFiniteError(const std::string& message) : UserError(message) {}
};

// Closed-form expectations of one compressor for one input x.
struct Expectation {
  double payload_bits = 0.0;   // E[payload bits], exact or approximate as bits_formula says
  std::string bits_formula;    // e.g. "32*ceil(d/b) + 2d (exact)"
  double squared_error = 0.0;  // E||Q(x) - x||^2 for this x (with the fp32 values on the wire)
  double nonzeros = 0.0;       // E[number of nonzero entries of Q(x)]
};

// Where decoded values v go, element by element: out[j] = v[j] (a plain decode), or
// out[j] = base[j] + weight * v[j] (base may be out itself: out += weight * v). Each element is
// computed by exactly that expression, so decoding into a target gives the same bits as decoding
// into a buffer and then applying the update. Holds pointers: the vectors must outlive it.
class DecodeTarget {
 public:
  explicit DecodeTarget(Eigen::Ref<Eigen::VectorXd> out)
      : out_(out.data()), base_(nullptr), weight_(1.0), size_(out.size()) {}
  // REQUIRES: base.size() == out.size().
  DecodeTarget(Eigen::Ref<Eigen::VectorXd> out, const Eigen::Ref<const Eigen::VectorXd>& base,
               double weight);

  int64_t size() const { return size_; }
  bool plain() const { return base_ == nullptr; }
  // The output vector (REQUIRES for writing decoded values directly: plain()).
  Eigen::Map<Eigen::VectorXd> out() const { return {out_, size_}; }
  void Put(int64_t j, double v) const { out_[j] = base_ == nullptr ? v : base_[j] + weight_ * v; }
  // True when Put(j, v) is out[j] += weight() * v (the base is the output itself).
  bool accumulates() const { return base_ == out_; }
  double weight() const { return weight_; }
  // Elements [begin, end) decode to zero.
  void PutZeros(int64_t begin, int64_t end) const;
  // Every element: v is the whole decoded vector.
  void PutAll(const Eigen::Ref<const Eigen::VectorXd>& v) const;
  // The same rule on elements [offset, offset + size).
  DecodeTarget Segment(int64_t offset, int64_t size) const;

 private:
  DecodeTarget(double* out, const double* base, double weight, int64_t size)
      : out_(out), base_(base), weight_(weight), size_(size) {}
  double* out_;
  const double* base_;  // nullptr: a plain decode
  double weight_;
  int64_t size_;
};

// The public members every compressor overrides (the contract above), declared once: a
// compressor writes `COMMSIM_COMPRESSOR_MEMBERS;` in its public section and defines the three in
// its .cc file (parameter names there are its own). Its encoder, EncodeImpl, is private (or comes
// from DrawingCompressor, uniform_draws.h).
#define COMMSIM_COMPRESSOR_MEMBERS                                                    \
  void DecodeInto(const Message& message, const DecodeTarget& target) const override; \
  double ErrorFactor(int64_t dim) const override;                                     \
  Expectation Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const override

// Encodes a vector of the dimension it was made for, handed over in order in chunks.
class ChunkEncoder {
 public:
  virtual ~ChunkEncoder() = default;
  // The next n values of x.
  virtual void Put(const double* values, int64_t n) = 0;
  // Whether PutAt may be called: an encoder that codes each value on its own and draws nothing
  // (identity), so the values may come in any order. Default: false.
  virtual bool any_order() const { return false; }
  // The values x[begin, begin + n). REQUIRES: any_order(); every index put once over the
  // encoder's life, by PutAt alone (Put's position is not kept with it). Default: a failed check.
  virtual void PutAt(int64_t begin, const double* values, int64_t n);
  // Encode(x, rng)'s message, or nullopt when Encode(x, rng) would throw (a value not finite, or
  // not on the wire format). REQUIRES: every value put, once.
  virtual std::optional<Message> Finish() = 0;
};

class Compressor {
 public:
  virtual ~Compressor() = default;
  // The registry name.
  std::string_view Name() const { return name_; }
  // True when E[Decode(Encode(x))] = x.
  bool unbiased() const { return unbiased_; }
  Message Encode(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng) const {
    return EncodeImpl(x, rng, nullptr);
  }
  // REQUIRES: out.size() equals the encoded vector's dimension.
  void Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const {
    DecodeInto(message, DecodeTarget(out));
  }
  // Encode(x, rng), delivering the decoded values to `target` as well (the contract above).
  // REQUIRES: target.size() == x.size().
  Message EncodeWithDecoded(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                            const DecodeTarget& target) const;
  // A ChunkEncoder for vectors of dimension d, or nullptr when the compressor has none (default).
  // With `decoded` (else nullptr), each Put also delivers its values' decoded values to that
  // target, as EncodeWithDecoded does (a copy of the target is kept: the vectors it refers to must
  // outlive the encoder). REQUIRES: decoded is null or of size d.
  virtual std::unique_ptr<ChunkEncoder> ChunkEncode(int64_t /*d*/,
                                                    const DecodeTarget* /*decoded*/) const {
    return nullptr;
  }
  // ChunkEncode for Encode(x, rng) with its draws (the contract above), or nullptr. `rng` must
  // outlive the encoder.
  virtual std::unique_ptr<ChunkEncoder> ChunkEncodeWithRng(int64_t d, Rng& /*rng*/,
                                                           const DecodeTarget* decoded) const {
    return ChunkEncode(d, decoded);
  }
  // Decode into `target`. REQUIRES: target.size() equals the encoded vector's dimension.
  virtual void DecodeInto(const Message& message, const DecodeTarget& target) const = 0;
  // DecodeInto(*messages[i], target) for each i in turn (the default); a compressor may fuse them
  // into one pass over target with the same bits (a server adding its uplinks to its sum). On a
  // DecodeError the target holds some of the messages' values.
  virtual void DecodeSumInto(std::span<const Message* const> messages,
                             const DecodeTarget& target) const {
    for (const Message* m : messages) DecodeInto(*m, target);
  }
  // Called by DecodeSumFromZero with each chunk [begin, end) of the sum: values[0, end - begin).
  using SumChunkDone = std::function<void(int64_t begin, int64_t end, const double* values)>;
  // The messages' decoded sum from zero, handed over chunk by chunk: sum_j = ((0 + 1 v0_j) +
  // 1 v1_j) + ... (the bits of sum.setZero() then DecodeSumInto(messages, DecodeTarget(sum,
  // sum, 1.0))); done(begin, end, values) runs once for each of the consecutive chunks that cover
  // [0, d) in order, so the caller can use a chunk while it is in cache (a server's step).
  // `scratch` (d elements) is the compressor's to use; its values afterwards are unspecified, but
  // once done(begin, end, ...) has returned the compressor never reads or writes scratch[begin,
  // end) again, so the caller may keep values of its own there (done may write them once it has
  // read the chunk's values, which may be that very segment). The default decodes the whole sum
  // into scratch, then calls done(0, d, scratch) once; a compressor may sum each small chunk in a
  // buffer of its own instead (no pass over scratch at all). On a DecodeError, done has run for
  // some chunks (the values before the corrupted one's chunk).
  virtual void DecodeSumFromZero(std::span<const Message* const> messages,
                                 Eigen::Ref<Eigen::VectorXd> scratch,
                                 const SumChunkDone& done) const {
    scratch.setZero();
    DecodeSumInto(messages, DecodeTarget(scratch, scratch, 1.0));
    done(0, scratch.size(), scratch.data());
  }
  virtual double ErrorFactor(int64_t dim) const = 0;
  // REQUIRES: x is finite.
  virtual Expectation Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const = 0;

 protected:
  // `name` must outlive the compressor (a string literal, or a wrapped compressor's name).
  Compressor(std::string_view name, bool unbiased) : name_(name), unbiased_(unbiased) {}
  // Encodes x; when `target` is not null, also delivers the decoded values to it.
  virtual Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                             const DecodeTarget* target) const = 0;
  // For an encoder without a fused path: decodes `message` into `target` when it is not null.
  void DeliverDecoded(const Message& message, const DecodeTarget* target) const {
    if (target != nullptr) DecodeInto(message, *target);
  }

 private:
  std::string_view name_;
  bool unbiased_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_COMPRESSOR_H_
