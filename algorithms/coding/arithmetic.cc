#include "algorithms/coding/arithmetic.h"

#include <fmt/format.h>

#include "sim/check.h"

namespace commsim {
namespace {

constexpr uint64_t kHalf = uint64_t{1} << 31;
constexpr uint64_t kQuarter = uint64_t{1} << 30;
constexpr uint32_t kIncrement = 32;
constexpr uint32_t kMaxTotal = uint32_t{1} << 16;

}  // namespace

AdaptiveModel::AdaptiveModel(int alphabet_size)
    : freq_(static_cast<size_t>(alphabet_size), 1u), total_(static_cast<uint32_t>(alphabet_size)) {
  COMMSIM_CHECK(alphabet_size >= 2 && alphabet_size <= 256, "alphabet size {}", alphabet_size);
}

uint32_t AdaptiveModel::Low(int s) const {
  uint32_t low = 0;
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

void ArithmeticEncoder::EmitBit(bool bit) {
  out_.PutBit(bit);
  for (; pending_ > 0; --pending_) out_.PutBit(!bit);
}

void ArithmeticEncoder::Encode(AdaptiveModel& model, int symbol) {
  const uint64_t range = high_ - low_ + 1;
  const uint64_t total = model.total();
  const uint64_t lo = model.Low(symbol);
  const uint64_t hi = lo + model.Freq(symbol);
  high_ = low_ + range * hi / total - 1;
  low_ = low_ + range * lo / total;
  while (true) {
    if (high_ < kHalf) {
      EmitBit(false);
    } else if (low_ >= kHalf) {
      EmitBit(true);
      low_ -= kHalf;
      high_ -= kHalf;
    } else if (low_ >= kQuarter && high_ < kHalf + kQuarter) {
      ++pending_;
      low_ -= kQuarter;
      high_ -= kQuarter;
    } else {
      break;
    }
    low_ <<= 1;
    high_ = (high_ << 1) | 1;
  }
  model.Update(symbol);
}

void ArithmeticEncoder::Finish() {
  ++pending_;
  EmitBit(low_ >= kQuarter);
}

ArithmeticDecoder::ArithmeticDecoder(BitReader& in) : in_(in), start_(in.position()) {
  // The encoder's first bit is the most significant bit of the 32-bit code value.
  for (int i = 0; i < 32; ++i) value_ = (value_ << 1) | in_.GetPadded(1);
}

int ArithmeticDecoder::Decode(AdaptiveModel& model) {
  const uint64_t range = high_ - low_ + 1;
  const uint64_t total = model.total();
  const uint64_t count = ((value_ - low_ + 1) * total - 1) / range;
  if (count >= total) throw DecodeError("corrupted message: arithmetic code value out of range");
  uint32_t lo32 = 0;
  const int symbol = model.Find(static_cast<uint32_t>(count), &lo32);
  const uint64_t lo = lo32;
  const uint64_t hi = lo + model.Freq(symbol);
  high_ = low_ + range * hi / total - 1;
  low_ = low_ + range * lo / total;
  while (true) {
    if (high_ < kHalf) {
      // nothing to subtract
    } else if (low_ >= kHalf) {
      low_ -= kHalf;
      high_ -= kHalf;
      value_ -= kHalf;
    } else if (low_ >= kQuarter && high_ < kHalf + kQuarter) {
      low_ -= kQuarter;
      high_ -= kQuarter;
      value_ -= kQuarter;
    } else {
      break;
    }
    low_ <<= 1;
    high_ = (high_ << 1) | 1;
    value_ = (value_ << 1) | in_.GetPadded(1);
    ++shifts_;
  }
  if (in_.position() > in_.size() + 64) {
    throw DecodeError("truncated message: arithmetic decoder ran past the end of the stream");
  }
  model.Update(symbol);
  return symbol;
}

void ArithmeticDecoder::Finish(int64_t end_bit) {
  const int64_t encoder_end = start_ + shifts_ + 2;
  if (encoder_end != end_bit) {
    throw DecodeError(fmt::format(
        "corrupted message: arithmetic-coded section should end at bit {}, the stream ends at {}",
        encoder_end, end_bit));
  }
  in_.Seek(end_bit);  // the decoder read up to 30 bits ahead of the encoder's end
}

}  // namespace commsim
