// ArithmeticEncoder::EncodeRun and ArithmeticDecoder::DecodeRun: the per-symbol steps of
// arithmetic.cc with the coder state and a small model in locals, compiled for several
// instruction sets (integer arithmetic only: every clone computes the same bits).
#include <algorithm>

#include "algorithms/coding/arithmetic.h"
#include "algorithms/coding/arithmetic_steps.h"
#include "sim/target_clones.h"

namespace commsim {

using namespace arithmetic_steps;  // NOLINT: the coder's own internal steps

namespace {

constexpr int kMaxLanes = 8;  // the largest alphabet the runs keep in locals

// A small model as cumulative counts: cum[s] = Low(s), cum[size] = total, and cum[i] = total for
// i > size too (so a decoder comparing against every lane needs no bound).
struct Cumulative {
  uint32_t cum[kMaxLanes + 1];
  void Load(const std::vector<uint32_t>& freq) {
    const int size = static_cast<int>(freq.size());
    cum[0] = 0;
    for (int i = 0; i < kMaxLanes; ++i) cum[i + 1] = cum[i] + (i < size ? freq[i] : 0);
  }
  void Store(std::vector<uint32_t>& freq) const {
    for (size_t i = 0; i < freq.size(); ++i) freq[i] = cum[i + 1] - cum[i];
  }
  // AdaptiveModel::Update(s) on the lanes 1..kLanes (the frequencies halved past kMaxTotal).
  template <int kLanes>
  void Update(int s, int size) {
    for (int i = 1; i <= kLanes; ++i) cum[i] += kIncrement & Mask32(i > s);
    if (cum[size] > kMaxTotal) [[unlikely]] {
      uint32_t below = 0;
      for (int i = 0; i < kLanes; ++i) {
        const uint32_t f = i < size ? (cum[i + 1] - below + 1) / 2 : 0;
        below = cum[i + 1];
        cum[i + 1] = cum[i] + f;
      }
    }
  }
};

// Bits most significant first in a local word, handed to the writer (which packs the first bit
// least significant) reversed, a word at a time.
struct MsbBits {
  BitWriter& out;
  uint64_t acc = 0;  // the last `fill` bits put are its low bits (the bits above are stale)
  int fill = 0;      // 0..63
  // REQUIRES: 0 <= n <= 64, chunk < 2^n.
  void operator()(uint64_t chunk, int n) {
    if (fill + n < 64) [[likely]] {
      acc = (acc << n) | chunk;
      fill += n;
      return;
    }
    const int rest = fill + n - 64;
    out.Put(Reverse64((fill == 0 ? 0 : acc << (64 - fill)) | (chunk >> rest)), 64);
    acc = chunk;
    fill = rest;
  }
  void Flush() {
    if (fill > 0) out.Put(Reverse64(acc << (64 - fill)), fill);
    fill = 0;
  }
};

struct EncoderState {
  uint64_t low, range;
  int64_t pending;
};

// ArithmeticEncoder::Encode for symbols[j] + offset, j < n. kLanes >= the alphabet size.
template <int kLanes>
[[gnu::always_inline]] inline void EncodeLoop(EncoderState& st, Cumulative& model, int size,
                                              const int8_t* symbols, int64_t n, int offset,
                                              BitWriter& out) {
  uint64_t low = st.low, range = st.range;
  int64_t pending = st.pending;
  MsbBits bits{out};
  for (int64_t j = 0; j < n; ++j) {
    const int s = symbols[j] + offset;
    const uint64_t inv = Reciprocal(model.cum[size]);
    const uint64_t ql = DivideBy(range * model.cum[s], inv);
    const uint64_t qh = DivideBy(range * model.cum[s + 1], inv);
    const uint64_t narrowed = low + ql;
    const Shift sh = RenormShift(narrowed, low + qh - 1);
    EmitSettled(narrowed, sh.k, pending, bits);
    pending += sh.s - sh.k;
    low = (narrowed << sh.s) & 0x7FFFFFFFu;
    range = (qh - ql) << sh.s;
    model.Update<kLanes>(s, size);
  }
  bits.Flush();
  st = {low, range, pending};
}

COMMSIM_TARGET_CLONES
void EncodeTernary(EncoderState& st, Cumulative& model, const int8_t* symbols, int64_t n,
                   int offset, BitWriter& out) {
  EncodeLoop<3>(st, model, 3, symbols, n, offset, out);
}

COMMSIM_TARGET_CLONES
void EncodeSmall(EncoderState& st, Cumulative& model, int size, const int8_t* symbols, int64_t n,
                 int offset, BitWriter& out) {
  EncodeLoop<kMaxLanes>(st, model, size, symbols, n, offset, out);
}

// ArithmeticDecoder::Decode n times into out[j] - offset. The symbol is the number of lanes i
// (1 <= i < kLanes) whose boundary q_i = floor(range cum[i] / total) is at most v = value - low:
// Decode's count ((v + 1) total - 1) / range is >= cum[i] exactly when (v + 1) total > cum[i]
// range, that is v + 1 > range cum[i] / total, that is v >= q_i (v is an integer). The symbol's
// interval is then [q_s, q_{s+1}) (q_0 = 0, q_kLanes = range), found without a division.
template <int kLanes>
[[gnu::always_inline]] inline int64_t DecodeLoop(DecoderState& st, Cumulative& model, int size,
                                                 int8_t* out, int64_t n, int offset,
                                                 BitReader& in, int64_t shift_limit) {
  DecoderState s = st;
  for (int64_t j = 0; j < n; ++j) {
    const uint64_t inv = Reciprocal(model.cum[size]);
    const uint64_t v = s.value - s.low;
    if (v >= s.range) return j;  // the caller throws
    uint64_t ql = 0, qh = s.range;
    int symbol = 0;
    uint64_t q[kLanes];
    for (int i = 1; i < kLanes; ++i) q[i] = DivideBy(s.range * model.cum[i], inv);
    for (int i = 1; i < kLanes; ++i) {
      symbol += v >= q[i];
      ql = (q[i] & Mask64(v >= q[i])) | (ql & Mask64(v < q[i]));
    }
    for (int i = kLanes - 1; i >= 1; --i) qh = (q[i] & Mask64(v < q[i])) | (qh & Mask64(v >= q[i]));
    Refill(s, in);
    Advance(s, ql, qh);
    model.Update<kLanes>(symbol, size);
    out[j] = static_cast<int8_t>(symbol - offset);
    if (s.shifts > shift_limit) [[unlikely]] {
      st = s;
      return j + 1;
    }
  }
  st = s;
  return n;
}

COMMSIM_TARGET_CLONES
int64_t DecodeTernary(DecoderState& st, Cumulative& model, int8_t* out, int64_t n, int offset,
                      BitReader& in, int64_t shift_limit) {
  return DecodeLoop<3>(st, model, 3, out, n, offset, in, shift_limit);
}

COMMSIM_TARGET_CLONES
int64_t DecodeSmall(DecoderState& st, Cumulative& model, int size, int8_t* out, int64_t n,
                    int offset, BitReader& in, int64_t shift_limit) {
  return DecodeLoop<kMaxLanes>(st, model, size, out, n, offset, in, shift_limit);
}

}  // namespace

void ArithmeticEncoder::EncodeRun(AdaptiveModel& model, const int8_t* symbols, int64_t n,
                                  int offset) {
  const int size = model.size();
  if (size > kMaxLanes) {
    for (int64_t j = 0; j < n; ++j) Encode(model, symbols[j] + offset);
    return;
  }
  Cumulative cum;
  cum.Load(model.freq_);
  EncoderState st{low_, range_, pending_};
  if (size == 3) {
    EncodeTernary(st, cum, symbols, n, offset, out_);
  } else {
    EncodeSmall(st, cum, size, symbols, n, offset, out_);
  }
  cum.Store(model.freq_);
  model.total_ = cum.cum[size];
  low_ = st.low;
  range_ = st.range;
  pending_ = st.pending;
}

void ArithmeticDecoder::DecodeRun(AdaptiveModel& model, int8_t* out, int64_t n, int offset) {
  const int size = model.size();
  if (size > kMaxLanes) {
    for (int64_t j = 0; j < n; ++j) out[j] = static_cast<int8_t>(Decode(model) - offset);
    return;
  }
  Cumulative cum;
  cum.Load(model.freq_);
  // CheckNotPastEnd fails once shifts exceed this.
  const int64_t shift_limit = in_.size() + 32 - start_;
  const int64_t done = size == 3 ? DecodeTernary(st_, cum, out, n, offset, in_, shift_limit)
                                 : DecodeSmall(st_, cum, size, out, n, offset, in_, shift_limit);
  cum.Store(model.freq_);
  model.total_ = cum.cum[size];
  if (done < n && st_.shifts <= shift_limit) {
    throw DecodeError("corrupted message: arithmetic code value out of range");
  }
  CheckNotPastEnd();
}

}  // namespace commsim
