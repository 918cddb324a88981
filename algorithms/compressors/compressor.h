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
//   - Encode rejects NaN/Inf input, and values beyond the fp32 range of its wire format, with a
//     NonFiniteError naming the compressor (the run drivers turn it into status "diverged"); Decode of a truncated or
//     corrupted message throws DecodeError and never reads out of bounds.
//   - A Compressor object is immutable after construction and may be shared across threads.
//   - ErrorFactor(d) is a constant C with E||Q(x) - x||^2 <= C ||x||^2 for every x of dimension d
//     (omega for unbiased compressors, 1 - delta for contractive ones), ignoring the fp32 rounding
//     of values on the wire. Algorithms use it for theory defaults (DIANA: alpha <= 1/(omega+1)).
//   - Expected(x) gives closed forms for one input (expected payload bits, expected squared error,
//     expected nonzeros), printed by `commsim compress` next to the measured values.
#ifndef COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_H_
#define COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_H_

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/error.h"
#include "sim/message.h"
#include "sim/rng.h"

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

class Compressor {
 public:
  virtual ~Compressor() = default;
  virtual std::string_view Name() const = 0;
  // True when E[Decode(Encode(x))] = x.
  virtual bool unbiased() const = 0;
  virtual Message Encode(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng) const = 0;
  // REQUIRES: out.size() equals the encoded vector's dimension.
  virtual void Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const = 0;
  virtual double ErrorFactor(int64_t dim) const = 0;
  // REQUIRES: x is finite.
  virtual Expectation Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const = 0;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_H_
