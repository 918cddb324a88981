// Adaptive arithmetic coding for small alphabets (Witten, Neal and Cleary style, 32-bit range).
//
// AdaptiveModel keeps a frequency count per symbol (all start at 1, +32 per coded symbol, halved
// when the total passes 2^16), so encoder and decoder adapt identically without sending a table.
// The encoder keeps the interval's low end in absolute terms (the textbook coder's pending bits
// become a carry into its output), holds back the output bits a carry could still change and
// writes the others to its BitWriter as they settle, the rest in Finish(); it emits exactly (range
// renormalisations + 2) bits, the textbook coder's bits. The decoder mirrors the encoder's
// state, so at Finish() it knows where the encoder's last bit was and checks that position
// against the expected end: a truncated or extended stream is a DecodeError. The decoder reads
// ahead of that point with BitReader::GetPadded and so never reads outside the message.
// Cost: within a few bits plus the model's learning cost of sum over symbols of the ideal code
// length -log2(p) under the adaptive counts (about (K-1)/2 * log2(n) bits for n iid symbols).
#ifndef COMMSIM_COMPRESSION_CODING_ARITHMETIC_H_
#define COMMSIM_COMPRESSION_CODING_ARITHMETIC_H_

#include <cstdint>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"

namespace commsim {

class AdaptiveModel {
 public:
  // REQUIRES: 2 <= alphabet_size <= 256.
  explicit AdaptiveModel(int alphabet_size);
  int size() const { return static_cast<int>(freq_.size()); }
  uint32_t total() const { return total_; }
  // Cumulative count below symbol s.
  uint32_t Low(int s) const;
  uint32_t Freq(int s) const { return freq_[s]; }
  // The symbol whose interval [Low(s), Low(s) + Freq(s)) holds `count`. REQUIRES: count < total.
  int Find(uint32_t count, uint32_t* low) const;
  void Update(int s);

 private:
  friend class ArithmeticEncoder;  // the runs keep a small model in locals
  friend class ArithmeticDecoder;
  std::vector<uint32_t> freq_;
  uint32_t total_;
};

namespace arithmetic_steps {
// The encoder's state (internal; arithmetic_run.cc steps it in locals). Its output so far, a bit
// string B, ends with `cache` (a 32-bit chunk, when has_cache), `ones` all-ones chunks and the
// `fill` bits of `acc`, held back because a carry can still add one to them; the bits before are
// written. A carry never passes the first bit of a pending run, a 0 in `cache` or after it.
struct EncoderState {
  uint64_t low = 0;  // the interval is [low, low + range - 1] in the 32 bits after B (< 2^32)
  uint64_t range = uint64_t{1} << 32;
  uint64_t acc = 0;  // B's last `fill` bits (fill < 32); bit `fill`: a carry into the chunks
  int fill = 0;
  bool has_cache = false;  // `cache` holds a chunk
  uint32_t cache = 0;      // the chunk before the all-ones ones, not yet written
  int64_t ones = 0;        // all-ones chunks after `cache`, not yet written
};
}  // namespace arithmetic_steps

class ArithmeticEncoder {
 public:
  explicit ArithmeticEncoder(BitWriter& out) : out_(out) {}
  // REQUIRES: 0 <= symbol < model.size(). Updates the model.
  void Encode(AdaptiveModel& model, int symbol);
  // Encode(model, symbols[j] + offset) for j = 0..n-1, with the coder and model state held in
  // locals (the same bits, several times faster for small alphabets).
  void EncodeRun(AdaptiveModel& model, const int8_t* symbols, int64_t n, int offset);
  // Writes the final bits. Must be called exactly once, after the last Encode.
  void Finish();

 private:
  BitWriter& out_;
  arithmetic_steps::EncoderState st_;
};

namespace arithmetic_steps {
// The decoder's state (internal; arithmetic_run.cc steps it in locals).
struct DecoderState {
  uint64_t low = 0;  // as the encoder's
  uint64_t range = uint64_t{1} << 32;
  uint64_t v = 0;      // the 32-bit code value less low (in [0, range) for a valid stream)
  uint64_t buf = 0;    // bits read ahead, the next one most significant
  int avail = 0;       // how many bits of buf are valid
  int64_t shifts = 0;  // bits the encoder emitted so far (renormalisation shifts)
};
}  // namespace arithmetic_steps

class ArithmeticDecoder {
 public:
  // Starts decoding at the reader's current position.
  explicit ArithmeticDecoder(BitReader& in);
  int Decode(AdaptiveModel& model);
  // out[j] = Decode(model) - offset for j = 0..n-1, with the state in locals (the same symbols,
  // about twice as fast for alphabets of at most 8 symbols). REQUIRES: every symbol - offset
  // fits an int8_t. Throws DecodeError where Decode would.
  void DecodeRun(AdaptiveModel& model, int8_t* out, int64_t n, int offset);
  // Verifies that the encoder's stream ended exactly at `end_bit` (normally in.size()) and leaves
  // the reader there. Throws DecodeError otherwise.
  void Finish(int64_t end_bit);

 private:
  void CheckNotPastEnd() const;
  BitReader& in_;
  int64_t start_;
  arithmetic_steps::DecoderState st_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_ARITHMETIC_H_
