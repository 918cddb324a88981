#include "compression/coding/arithmetic.h"

#include <fmt/format.h>

#include <vector>

#include "base/check.h"
#include "compression/coding/arithmetic_steps.h"

namespace commsim {

using namespace arithmetic_steps;  // NOLINT: the coder's own internal steps

AdaptiveModel::AdaptiveModel(int alphabet_size)
    : freq_(static_cast<size_t>(alphabet_size), 1u), total_(static_cast<uint32_t>(alphabet_size)) {
  COMMSIM_CHECK(alphabet_size >= 2 && alphabet_size <= 256, "alphabet size {}", alphabet_size);
}

uint32_t AdaptiveModel::Low(int s) const {
  uint32_t low = 0;
  const int n = size();
  if (n <= 8) {  // small alphabets: a fixed-length loop, no branch on the symbol
    for (int i = 0; i < n; ++i) low += i < s ? freq_[i] : 0;
    return low;
  }
  for (int i = 0; i < s; ++i) low += freq_[i];
  return low;
}

int AdaptiveModel::Find(uint32_t count, uint32_t* low) const {
  uint32_t cum = 0;
  const int n = size();
  for (int s = 0; s < n; ++s) {
    if (count < cum + freq_[s]) {
      *low = cum;
      return s;
    }
    cum += freq_[s];
  }
  COMMSIM_CHECK(false, "count {} outside total {}", count, total_);
  return -1;
}

void AdaptiveModel::Update(int s) {
  freq_[s] += kIncrement;
  total_ += kIncrement;
  if (total_ > kMaxTotal) {
    total_ = 0;
    for (uint32_t& f : freq_) {
      f = (f + 1) / 2;
      total_ += f;
    }
  }
}

const uint64_t* arithmetic_steps::Reciprocals(uint32_t t) {
  constexpr uint32_t kRow = kMaxTotal / kIncrement + 1;  // totals with one residue
  static const std::vector<uint64_t> table = [] {
    std::vector<uint64_t> r(size_t{kIncrement} * kRow, 0);
    for (uint32_t total = 2; total <= kMaxTotal; ++total)
      r[total % kIncrement * kRow + total / kIncrement] = Reciprocal(total);
    return r;
  }();
  return table.data() + t % kIncrement * kRow + t / kIncrement;
}

void ArithmeticEncoder::Encode(AdaptiveModel& model, int symbol) {
  const uint64_t lo = model.Low(symbol);
  const uint64_t inv = Reciprocal(model.total());
  const uint64_t ql = DivideBy(st_.range * lo, inv);
  const uint64_t qh = DivideBy(st_.range * (lo + model.Freq(symbol)), inv);
  uint64_t width = 0;
  int shift = 0;
  EncodeStep(st_.low, width, shift, st_.acc, st_.fill, ql, qh, st_, out_);
  st_.range = width << shift;
  model.Update(symbol);
}

// One more bit pins the value inside the interval (the textbook coder's 01 or 10 after its
// pending bits): as a narrowing to low' = 2^30 (low below a quarter) or 2^31 and two shifts.
void ArithmeticEncoder::Finish() {
  const uint64_t textbook_low = st_.low & (kHalf - 1);  // less the 2^31 of a pending run
  const uint64_t x = (st_.low & kHalf) + (textbook_low >= kQuarter ? kHalf : kQuarter);
  st_.acc = (st_.acc << 2) + (x >> 30);
  st_.fill += 2;
  if (st_.fill >= 32) st_.acc = FlushChunk(st_, st_.acc, st_.fill, out_);
  WriteHeld(st_, st_.acc >> st_.fill, out_);
  if (st_.fill > 0) out_.Put(Reverse64(st_.acc << (64 - st_.fill)), st_.fill);
}

ArithmeticDecoder::ArithmeticDecoder(BitReader& in) : in_(in), start_(in.position()) {
  // The encoder's first bit is the most significant bit of the 32-bit code value.
  Refill(st_, in_);
  st_.v = st_.buf >> 32;
  st_.buf <<= 32;
  st_.avail -= 32;
}

int ArithmeticDecoder::Decode(AdaptiveModel& model) {
  const uint64_t total = model.total();
  const uint64_t v = st_.v;
  if (v >= st_.range) throw DecodeError("corrupted message: arithmetic code value out of range");
  uint32_t lo32 = 0;
  const int symbol = model.Find(static_cast<uint32_t>(((v + 1) * total - 1) / st_.range), &lo32);
  const uint64_t inv = Reciprocal(total);
  Refill(st_, in_);
  Advance(st_, DivideBy(st_.range * lo32, inv),
          DivideBy(st_.range * (lo32 + model.Freq(symbol)), inv));
  CheckNotPastEnd();
  model.Update(symbol);
  return symbol;
}

void ArithmeticDecoder::CheckNotPastEnd() const {
  // The bit-at-a-time decoder's reader position: 32 bits ahead of the encoder's last bit.
  if (start_ + 32 + st_.shifts > in_.size() + 64) {
    throw DecodeError("truncated message: arithmetic decoder ran past the end of the stream");
  }
}

void ArithmeticDecoder::Finish(int64_t end_bit) {
  const int64_t encoder_end = start_ + st_.shifts + 2;
  if (encoder_end != end_bit) {
    throw DecodeError(fmt::format(
        "corrupted message: arithmetic-coded section should end at bit {}, the stream ends at {}",
        encoder_end, end_bit));
  }
  in_.Seek(end_bit);  // the decoder read up to 30 bits ahead of the encoder's end
}

}  // namespace commsim
