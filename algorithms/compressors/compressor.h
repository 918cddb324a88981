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
//   - Encode rejects NaN/Inf input with a UserError naming the compressor; Decode of a truncated or
//     corrupted message throws DecodeError and never reads out of bounds.
//   - A Compressor object is immutable after construction and may be shared across threads.
#ifndef COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_H_
#define COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_H_

#include <Eigen/Core>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/rng.h"

namespace commsim {

// An encoded message: the bitstream (little-endian 64-bit words, bits past payload_bits are zero)
// and its exact length in bits.
struct Message {
  int64_t payload_bits = 0;
  std::vector<uint64_t> words;
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
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_H_
