#include "algorithms/coding/arithmetic.h"

#include <fmt/format.h>

#include <array>
#include <bit>

#include "sim/check.h"

namespace commsim {
namespace {

constexpr uint64_t kHalf = uint64_t{1} << 31;
constexpr uint64_t kQuarter = uint64_t{1} << 30;
constexpr uint32_t kIncrement = 32;
constexpr uint32_t kMaxTotal = uint32_t{1} << 16;

__extension__ typedef unsigned __int128 Uint128;

// floor(a / t) by a multiplication: the division's latency would otherwise be on the coder's
// critical path (each symbol's interval depends on the previous one), while the reciprocal
// depends only on the model's total. Exact for 2 <= t <= 2^16 and a <= 2^32 t (a = range * count,
// range <= 2^32, count <= t): with m = floor((2^64 - 1) / t) + 1 = 2^64 / t + e, 0 <= e <= 1,
// a m / 2^64 = a / t + a e / 2^64, and a e / 2^64 < 1 / t whenever the remainder of a / t is
// positive (a < 2^32 t then, so a e / 2^64 < t / 2^32 <= 1 / t): the floor is unchanged.
inline uint64_t Reciprocal(uint64_t t) { return ~uint64_t{0} / t + 1; }
inline uint64_t DivideBy(uint64_t a, uint64_t reciprocal) {
  return static_cast<uint64_t>((static_cast<Uint128>(a) * reciprocal) >> 64);
}

}  // namespace

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

void ArithmeticEncoder::EmitBit(bool bit) {
  out_.PutBit(bit);
  for (; pending_ > 0; --pending_) out_.PutBit(!bit);
}

namespace {

constexpr std::array<uint8_t, 256> MakeReverseTable() {
  std::array<uint8_t, 256> t{};
  for (unsigned v = 0; v < 256; ++v) {
    unsigned r = 0;
    for (int b = 0; b < 8; ++b) r |= ((v >> b) & 1u) << (7 - b);
    t[v] = static_cast<uint8_t>(r);
  }
  return t;
}
constexpr std::array<uint8_t, 256> kReverse = MakeReverseTable();

// The 32 bits of v in reverse order (bit 31 becomes bit 0).
inline uint64_t Reverse32(uint64_t v) {
  return uint64_t{kReverse[v & 255]} << 24 | uint64_t{kReverse[(v >> 8) & 255]} << 16 |
         uint64_t{kReverse[(v >> 16) & 255]} << 8 | kReverse[(v >> 24) & 255];
}

}  // namespace

// The k settled leading bits of low_ (most significant first, as the bit-at-a-time loop emits
// them), the first one followed by the pending opposite bits: one write, without a branch on
// the data in the usual case (k = 0 writes nothing and keeps the pending count).
void ArithmeticEncoder::EmitLeading(int k) {
  const uint64_t stream = Reverse32(low_ & ~(0xFFFFFFFFu >> k));  // first bit at bit 0
  const uint64_t first = stream & 1;
  if (k > 0 && pending_ + k > 64) [[unlikely]] {  // a very long pending run
    EmitBit(first != 0);
    out_.Put(stream >> 1, k - 1);
    return;
  }
  const int p = k > 0 ? static_cast<int>(pending_) : 0;
  // p opposite bits after the first: ones when the first bit is 0 (p <= 63 here when k > 0).
  const uint64_t opposite = (first - 1) & ((uint64_t{1} << p) - 1);
  // The other k - 1 bits after them (a shift by 64 or more cannot happen: then k = 1).
  const uint64_t tail = k > 1 ? (stream >> 1) << (1 + p) : 0;
  out_.Put(first | opposite << 1 | tail, p + k);
  pending_ = k > 0 ? 0 : pending_;
}

// Narrows [low_, high_] to the symbol's interval, then renormalises in closed form. The
// bit-at-a-time loop of the textbook coder (emit and shift while the top bits agree; then
// count a pending bit and shift while low = 01.. and high = 10..) takes k steps of the first
// kind and then m of the second (after one of the second kind the top bits differ, so the
// first kind cannot follow): k leading bits agree, and the following m bits have low 1, high 0.
// Shifts by k = 0 or m = 0 leave the state as it is, so no step branches on the data.
void ArithmeticEncoder::Encode(AdaptiveModel& model, int symbol) {
  const uint64_t range = high_ - low_ + 1;
  const uint64_t total = model.total();
  const uint64_t lo = model.Low(symbol);
  const uint64_t hi = lo + model.Freq(symbol);
  const uint64_t inv = Reciprocal(total);
  high_ = low_ + DivideBy(range * hi, inv) - 1;
  low_ = low_ + DivideBy(range * lo, inv);
  const int k = std::countl_zero(static_cast<uint32_t>(low_ ^ high_));  // < 32: low_ < high_
  EmitLeading(k);
  low_ = (low_ << k) & 0xFFFFFFFFu;
  high_ = ((high_ << k) | ((uint64_t{1} << k) - 1)) & 0xFFFFFFFFu;
  const int m = std::countl_one(static_cast<uint32_t>((low_ & ~high_) << 1));
  pending_ += m;
  low_ = (low_ << m) & 0x7FFFFFFFu;  // bit 31 of low_ is 0 here, of high_ 1
  high_ = (((high_ << m) | ((uint64_t{1} << m) - 1)) & 0xFFFFFFFFu) | kHalf;
  model.Update(symbol);
}

namespace {

// A 64-bit bit buffer in registers in front of a BitWriter (the same packing as BitWriter::Put).
struct LocalBits {
  uint64_t acc = 0;
  int fill = 0;
  void Put(BitWriter& out, uint64_t value, int n) {
    acc |= value << fill;
    const int total = fill + n;
    if (total >= 64) {
      out.Put(acc, 64);
      acc = fill == 0 ? 0 : value >> (64 - fill);
      fill = total - 64;
    } else {
      fill = total;
    }
  }
  void Flush(BitWriter& out) {
    out.Put(acc, fill);
    acc = 0;
    fill = 0;
  }
};

// EmitLeading's usual case (pending + k <= 64) into a local buffer, with masks instead of
// conditions: k = 0 (nothing to write, pending kept) is common and unpredictable.
inline void EmitLeadingMasked(uint64_t low, int k, int64_t& pending, LocalBits& bits,
                              BitWriter& out) {
  const uint64_t stream = Reverse32(low & ~(0xFFFFFFFFu >> k));
  const uint64_t first = stream & 1;
  const uint64_t emits = 0 - static_cast<uint64_t>(k != 0);
  const int p = static_cast<int>(static_cast<uint64_t>(pending) & emits);
  const uint64_t opposite = (first - 1) & ((uint64_t{1} << p) - 1);
  bits.Put(out, first | opposite << 1 | ((stream >> 1) << p) << 1, p + k);
  pending &= static_cast<int64_t>(~emits);
}

}  // namespace

// Encode() symbol by symbol, with low, high, pending, the model (when it has at most 8
// symbols) and a bit buffer in locals; the steps and the bits are those of Encode.
void ArithmeticEncoder::EncodeRun(AdaptiveModel& model, const int8_t* symbols, int64_t n,
                                  int offset) {
  const int size = model.size();
  if (size > 8) {
    for (int64_t j = 0; j < n; ++j) Encode(model, symbols[j] + offset);
    return;
  }
  uint32_t f[8] = {};  // zero past the alphabet: the fixed-length sums below need no bound
  for (int i = 0; i < size; ++i) f[i] = model.freq_[static_cast<size_t>(i)];
  uint32_t total = model.total_;
  uint64_t low = low_, high = high_;
  int64_t pending = pending_;
  LocalBits bits;
  for (int64_t j = 0; j < n; ++j) {
    const int s = symbols[j] + offset;
    uint32_t lo = 0;
    if (size <= 4) {  // the common small alphabets: half the work of the general sum
      for (int i = 0; i < 4; ++i) lo += f[i] & (0u - static_cast<uint32_t>(i < s));
    } else {
      for (int i = 0; i < 8; ++i) lo += f[i] & (0u - static_cast<uint32_t>(i < s));
    }
    const uint64_t range = high - low + 1;
    const uint64_t inv = Reciprocal(total);
    high = low + DivideBy(range * (lo + f[s]), inv) - 1;
    low = low + DivideBy(range * lo, inv);
    const int k = std::countl_zero(static_cast<uint32_t>(low ^ high));
    if (k > 0 && pending + k > 64) [[unlikely]] {  // EmitLeading's long-run path
      bits.Flush(out_);
      low_ = low;
      pending_ = pending;
      EmitLeading(k);
      pending = pending_;
    } else {
      EmitLeadingMasked(low, k, pending, bits, out_);
    }
    low = (low << k) & 0xFFFFFFFFu;
    high = ((high << k) | ((uint64_t{1} << k) - 1)) & 0xFFFFFFFFu;
    const int m = std::countl_one(static_cast<uint32_t>((low & ~high) << 1));
    pending += m;
    low = (low << m) & 0x7FFFFFFFu;
    high = (((high << m) | ((uint64_t{1} << m) - 1)) & 0xFFFFFFFFu) | kHalf;
    f[s] += kIncrement;
    total += kIncrement;
    if (total > kMaxTotal) [[unlikely]] {
      total = 0;
      for (int i = 0; i < size; ++i) total += f[i] = (f[i] + 1) / 2;
    }
  }
  bits.Flush(out_);
  for (int i = 0; i < size; ++i) model.freq_[static_cast<size_t>(i)] = f[i];
  model.total_ = total;
  low_ = low;
  high_ = high;
  pending_ = pending;
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
