// ArithmeticEncoder::EncodeRun and ArithmeticDecoder::DecodeRun: the per-symbol steps of
// arithmetic.cc with the coder state and a small model in locals, compiled for several
// instruction sets (integer arithmetic only: every clone computes the same bits).
#include <algorithm>
#include <type_traits>

#include "base/target_clones.h"
#include "compression/coding/arithmetic.h"
#include "compression/coding/arithmetic_steps.h"

namespace commsim {

using namespace arithmetic_steps;  // NOLINT: the coder's own internal steps

namespace {

constexpr int kMaxLanes = 8;  // the largest alphabet the runs keep in locals

// All-ones when b, else zero: the decoder's selects are masks, not branches (the compiler turns a
// conditional on these data-dependent, unpredictable conditions into a jump).
inline uint64_t Mask64(bool b) { return 0 - static_cast<uint64_t>(b); }

// A small model as cumulative counts: cum[s] = Low(s), cum[size] = total, and cum[i] = total for
// size < i <= kLanes too (a decoder comparing against every lane then needs no bound).
template <int kLanes>
struct Cumulative {
  uint32_t cum[kLanes + 1];
  int size;
  explicit Cumulative(const AdaptiveModel& model) : size(model.size()) {
    cum[0] = 0;
    for (int i = 0; i < kLanes; ++i) cum[i + 1] = cum[i] + (i < size ? model.Freq(i) : 0);
  }
  void Store(std::vector<uint32_t>& freq) const {
    for (int i = 0; i < size; ++i) freq[static_cast<size_t>(i)] = cum[i + 1] - cum[i];
  }
  uint32_t Low(int64_t s) const { return cum[s]; }
  uint32_t High(int64_t s) const { return cum[s + 1]; }
  uint32_t Total() const { return cum[kLanes]; }
  // AdaptiveModel::Update(s) is Add(s) then HalveIfOver().
  void Add(int s) {
    for (int i = 1; i <= kLanes; ++i) cum[i] += kIncrement & (0u - static_cast<uint32_t>(i > s));
  }
  void HalveIfOver() {
    if (cum[kLanes] > kMaxTotal) Halve(cum, size);
  }
  static void Halve(uint32_t* cum, int size) {
    uint32_t below = 0;  // cum[i] before halving
    for (int i = 0; i < kLanes; ++i) {
      const uint32_t f = i < size ? (cum[i + 1] - below + 1) / 2 : 0;
      below = cum[i + 1];
      cum[i + 1] = cum[i] + f;
    }
  }
};

// The same for alphabets of 2 or 3 symbols, the counts cum[0..3] in one vector register: an
// update is one add of the symbol's increments; reads go through a stored copy.
struct Cumulative3 {
  typedef uint32_t V4 __attribute__((vector_size(16)));
  static constexpr uint32_t kI = kIncrement;
  // add[s]: kIncrement in the lanes above s (a member: indexed off the stack pointer)
  V4 add[4] = {{0, kI, kI, kI}, {0, 0, kI, kI}, {0, 0, 0, kI}, {0, 0, 0, 0}};
  V4 v;
  uint32_t copy[4];
  int size;
  explicit Cumulative3(const AdaptiveModel& model) : size(model.size()) {
    const Cumulative<3> c(model);
    v = V4{c.cum[0], c.cum[1], c.cum[2], c.cum[3]};
    Sync();
  }
  void Sync() { __builtin_memcpy(copy, &v, sizeof(copy)); }
  void Store(std::vector<uint32_t>& freq) const {
    for (int i = 0; i < size; ++i) freq[static_cast<size_t>(i)] = copy[i + 1] - copy[i];
  }
  uint32_t Low(int64_t s) const { return copy[s]; }
  uint32_t High(int64_t s) const { return copy[s + 1]; }
  uint32_t Total() const { return copy[3]; }
  void Add(int64_t s) {
    v += add[s];
    Sync();
  }
  void HalveIfOver() {
    if (copy[3] > kMaxTotal) {
      Cumulative<3>::Halve(copy, size);
      v = V4{copy[0], copy[1], copy[2], copy[3]};
    }
  }
};

// The symbols until the model's next halving: the total steps by kIncrement per symbol whatever
// the symbol, so the halving comes after (kMaxTotal - total) / kIncrement + 1 updates.
inline int64_t UntilHalving(uint32_t total) { return (kMaxTotal - total) / kIncrement + 1; }

// The run keeps the interval's low end and the output bits after acc's in one register: window =
// (a << 32) + low, a holding the last `pending` bits of B (acc's bits come before them) plus a
// carry out of them, so that a narrowing's carry and a renormalisation are one add and one shift
// (EncodeStep's acc, fill and low updates, ShiftCount seeing the same interval: window's bits
// above 32 are a multiple of 2^32). No overflow: the interval's end U = window + range is below
// 2^(33 + pending) (so is x = window + ql), as U < 2^33 when pending is 0 (low < 2^32, range <=
// 2^32), and narrowing (U does not grow) then a shift by s (U and 2^pending times 2^s) keep
// U / 2^(33 + pending) below 1. A step shifts by s <= 18 (the narrowed range is at least
// floor(range / total) >= 2^14: range > 2^30 after a renormalisation, total <= 2^16, every count
// >= 1), so with pending <= kMaxPending before a step, x << s < 2^(33 + 12 + 18) = 2^63.
constexpr int kMaxPending = 12;

// FlushChunk as a call (fill by value: the caller subtracts the 32): the run's loop then keeps
// its state in registers, not the writer's.
[[gnu::noinline]] uint64_t FlushOutOfLine(EncoderState& st, uint64_t acc, int fill,
                                          BitWriter& out) {
  return FlushChunk(st, acc, fill, out);
}

// ArithmeticEncoder::Encode for symbols[j] + offset, j < n, on a local copy of the model, the
// reciprocals from the table. Offset: an int, or a compile-time constant (one register less).
template <class Model, class Offset>
[[gnu::always_inline]] inline void EncodeLoop(EncoderState& st, Model& model, const int8_t* symbols,
                                              int64_t n, Offset offset, BitWriter& out) {
  uint64_t window = st.low, width = st.range, acc = st.acc;  // range = width << shift
  int fill = st.fill, pending = 0, shift = 0;
  Model m = model;  // not through the reference: its counts stay in registers
  auto move = [&] {
    acc = (acc << pending) + (window >> 32);  // acc < 2^(fill + 1), pending < 32
    fill += pending;
    window &= 0xFFFFFFFFu;
    pending = 0;
    if (fill >= 32) [[unlikely]] {
      acc = FlushOutOfLine(st, acc, fill, out);
      fill -= 32;
    }
  };
  auto step = [&](int64_t c, uint64_t inv) {
    const uint64_t ql = DivideBy((width * m.Low(c)) << shift, inv);
    const uint64_t qh = DivideBy((width * m.High(c)) << shift, inv);
    const uint64_t x = window + ql;  // EncodeStep's x plus a 2^32
    const uint64_t d = WidthLessOne(ql, qh);
    shift = ShiftCount(x, x + d, d);
    window = x << shift;
    width = d + 1;
    pending += shift;
    m.Add(c);
  };
  for (const int8_t* const stop = symbols + n; symbols < stop; m.HalveIfOver()) {
    const int64_t k = std::min(stop - symbols, UntilHalving(m.Total()));
    // symbols[j] and its reciprocal at j = -k..-1, one index counting up to 0
    const uint64_t* const inv = Reciprocals(m.Total()) + k;
    symbols += k;
    int64_t j = -k;
    for (; j <= -4; j += 4) {  // four symbols a turn: the bits move once a turn, rarely more
      for (int i = 0; i < 4; ++i) {
        step(symbols[j + i] + int64_t{offset}, inv[j + i]);
        if (i == 3 || pending > kMaxPending) move();
      }
    }
    for (; j < 0; ++j) {
      step(symbols[j] + int64_t{offset}, inv[j]);
      move();
    }
  }
  model = m;
  move();
  st.acc = acc;
  st.low = window;
  st.range = width << shift;
  st.fill = fill;
}

// EncodeLoop with the offset of block_ternary's symbols (-1, 0, 1) as a constant.
template <class Model>
[[gnu::always_inline]] inline void EncodeLoop(EncoderState& st, Model& model, const int8_t* symbols,
                                              int64_t n, int offset, BitWriter& out) {
  if (offset == 1) {
    EncodeLoop(st, model, symbols, n, std::integral_constant<int, 1>(), out);
  } else {
    EncodeLoop<Model, int>(st, model, symbols, n, offset, out);
  }
}

COMMSIM_TARGET_CLONES
void EncodeTernary(EncoderState& st, Cumulative3& model, const int8_t* symbols, int64_t n,
                   int offset, BitWriter& out) {
  EncodeLoop(st, model, symbols, n, offset, out);
}

COMMSIM_TARGET_CLONES
void EncodeSmall(EncoderState& st, Cumulative<kMaxLanes>& model, const int8_t* symbols, int64_t n,
                 int offset, BitWriter& out) {
  EncodeLoop(st, model, symbols, n, offset, out);
}

// ArithmeticDecoder::Decode n times into out[j] - offset. The symbol is the number of lanes i
// (1 <= i < kLanes) whose boundary q_i = floor(range cum[i] / total) is at most v (value - low):
// Decode's count ((v + 1) total - 1) / range is >= cum[i] exactly when (v + 1) total > cum[i]
// range, that is v + 1 > range cum[i] / total, that is v >= q_i (v is an integer). The symbol's
// interval is then [q_s, q_{s+1}) (q_0 = 0, q_kLanes = range), found without a division.
template <int kLanes, class Model>
[[gnu::always_inline]] inline int64_t DecodeLoop(DecoderState& st, Model& model, int8_t* out,
                                                 int64_t n, int offset, BitReader& in,
                                                 int64_t shift_limit) {
  DecoderState s = st;
  Model m = model;  // not through the reference: its counts stay in registers
  for (int64_t j = 0; j < n; m.HalveIfOver()) {
    const uint64_t* inv = Reciprocals(m.Total());
    const int64_t end = j + std::min(n - j, UntilHalving(m.Total()));
    for (; j < end; ++j, ++inv) {
      const uint64_t v = s.v;
      if (v >= s.range) [[unlikely]] {  // Decode's out-of-range error: the caller throws
        model = m;
        st = s;
        return j;
      }
      uint64_t ql = 0, qh = s.range;
      int symbol = 0;
      uint64_t q[kLanes];
      for (int i = 1; i < kLanes; ++i) q[i] = DivideBy(s.range * m.Low(i), *inv);
      for (int i = 1; i < kLanes; ++i) {
        symbol += v >= q[i];
        ql = (q[i] & Mask64(v >= q[i])) | (ql & Mask64(v < q[i]));
      }
      for (int i = kLanes - 1; i >= 1; --i)
        qh = (q[i] & Mask64(v < q[i])) | (qh & Mask64(v >= q[i]));
      Refill(s, in);
      Advance(s, ql, qh);
      m.Add(symbol);
      out[j] = static_cast<int8_t>(symbol - offset);
      if (s.shifts > shift_limit) [[unlikely]] {
        m.HalveIfOver();
        model = m;
        st = s;
        return j + 1;
      }
    }
  }
  model = m;
  st = s;
  return n;
}

COMMSIM_TARGET_CLONES
int64_t DecodeTernary(DecoderState& st, Cumulative3& model, int8_t* out, int64_t n, int offset,
                      BitReader& in, int64_t shift_limit) {
  return DecodeLoop<3>(st, model, out, n, offset, in, shift_limit);
}

COMMSIM_TARGET_CLONES
int64_t DecodeSmall(DecoderState& st, Cumulative<kMaxLanes>& model, int8_t* out, int64_t n,
                    int offset, BitReader& in, int64_t shift_limit) {
  return DecodeLoop<kMaxLanes>(st, model, out, n, offset, in, shift_limit);
}

// The model's counts back from a run's local copy.
template <class Model>
void StoreModel(const Model& local, std::vector<uint32_t>& freq, uint32_t& total) {
  local.Store(freq);
  total = local.Total();
}

}  // namespace

void ArithmeticEncoder::EncodeRun(AdaptiveModel& model, const int8_t* symbols, int64_t n,
                                  int offset) {
  const int size = model.size();
  if (size > kMaxLanes) {
    for (int64_t j = 0; j < n; ++j) Encode(model, symbols[j] + offset);
    return;
  }
  if (size <= 3) {
    Cumulative3 local(model);
    EncodeTernary(st_, local, symbols, n, offset, out_);
    StoreModel(local, model.freq_, model.total_);
  } else {
    Cumulative<kMaxLanes> local(model);
    EncodeSmall(st_, local, symbols, n, offset, out_);
    StoreModel(local, model.freq_, model.total_);
  }
}

void ArithmeticDecoder::DecodeRun(AdaptiveModel& model, int8_t* out, int64_t n, int offset) {
  const int size = model.size();
  if (size > kMaxLanes) {
    for (int64_t j = 0; j < n; ++j) out[j] = static_cast<int8_t>(Decode(model) - offset);
    return;
  }
  // CheckNotPastEnd fails once shifts exceed this.
  const int64_t shift_limit = in_.size() + 32 - start_;
  int64_t done;
  if (size <= 3) {
    Cumulative3 local(model);
    done = DecodeTernary(st_, local, out, n, offset, in_, shift_limit);
    StoreModel(local, model.freq_, model.total_);
  } else {
    Cumulative<kMaxLanes> local(model);
    done = DecodeSmall(st_, local, out, n, offset, in_, shift_limit);
    StoreModel(local, model.freq_, model.total_);
  }
  if (done < n && st_.shifts <= shift_limit) {
    throw DecodeError("corrupted message: arithmetic code value out of range");
  }
  CheckNotPastEnd();
}

}  // namespace commsim
