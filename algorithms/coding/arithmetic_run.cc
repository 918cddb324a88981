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
  uint32_t Low(int s) const { return cum[s]; }
  uint32_t High(int s) const { return cum[s + 1]; }
  uint32_t Total() const { return cum[kLanes]; }
  // AdaptiveModel::Update(s) (the frequencies halved when the total passes kMaxTotal).
  void Update(int s) {
    for (int i = 1; i <= kLanes; ++i) cum[i] += kIncrement & Mask32(i > s);
    if (cum[kLanes] > kMaxTotal) [[unlikely]]
      Halve(cum, size);
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
// update is one compare, one mask and one add; reads go through a stored copy.
struct Cumulative3 {
  typedef uint32_t V4 __attribute__((vector_size(16)));
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
  uint32_t Low(int s) const { return copy[s]; }
  uint32_t High(int s) const { return copy[s + 1]; }
  uint32_t Total() const { return copy[3]; }
  void Update(int s) {
    const V4 lane = {0, 1, 2, 3};
    const uint32_t u = static_cast<uint32_t>(s);
    v += reinterpret_cast<V4>(lane > V4{u, u, u, u}) & kIncrement;
    Sync();
    if (copy[3] > kMaxTotal) [[unlikely]] {
      Cumulative<3>::Halve(copy, size);
      v = V4{copy[0], copy[1], copy[2], copy[3]};
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

// ArithmeticEncoder::Encode for symbols[j] + offset, j < n, on a local copy of the model.
template <class Model>
[[gnu::always_inline]] inline void EncodeLoop(EncoderState& st, Model& model, const int8_t* symbols,
                                              int64_t n, int offset, BitWriter& out) {
  uint64_t low = st.low, range = st.range;
  int64_t pending = st.pending;
  MsbBits bits{out};
  for (int64_t j = 0; j < n; ++j) {
    const int s = symbols[j] + offset;
    const uint64_t inv = Reciprocal(model.Total());
    const uint64_t ql = DivideBy(range * model.Low(s), inv);
    const uint64_t qh = DivideBy(range * model.High(s), inv);
    const uint64_t narrowed = low + ql;
    const Shift sh = RenormShift(narrowed, low + qh - 1);
    const int64_t p = pending & static_cast<int64_t>(Mask64(sh.k != 0));
    if (bits.fill + p + sh.k < 64) [[likely]] {  // EmitSettled's chunk, straight into the word
      bits.acc = (bits.acc << (p + sh.k)) |
                 ((narrowed >> (32 - sh.k)) + ((((uint64_t{1} << p) - 1) << sh.k) >> 1));
      bits.fill += static_cast<int>(p) + sh.k;
      pending -= p;
    } else {
      EmitSettled(narrowed, sh.k, pending, bits);
    }
    pending += sh.s - sh.k;
    low = (narrowed << sh.s) & 0x7FFFFFFFu;
    range = (qh - ql) << sh.s;
    model.Update(s);
  }
  bits.Flush();
  st = {low, range, pending};
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
// (1 <= i < kLanes) whose boundary q_i = floor(range cum[i] / total) is at most v = value - low:
// Decode's count ((v + 1) total - 1) / range is >= cum[i] exactly when (v + 1) total > cum[i]
// range, that is v + 1 > range cum[i] / total, that is v >= q_i (v is an integer). The symbol's
// interval is then [q_s, q_{s+1}) (q_0 = 0, q_kLanes = range), found without a division.
template <int kLanes, class Model>
[[gnu::always_inline]] inline int64_t DecodeLoop(DecoderState& st, Model& model, int8_t* out,
                                                 int64_t n, int offset, BitReader& in,
                                                 int64_t shift_limit) {
  DecoderState s = st;
  for (int64_t j = 0; j < n; ++j) {
    const uint64_t inv = Reciprocal(model.Total());
    const uint64_t v = s.value - s.low;
    if (v >= s.range) [[unlikely]] {  // Decode's out-of-range error: the caller throws
      st = s;
      return j;
    }
    uint64_t ql = 0, qh = s.range;
    int symbol = 0;
    uint64_t q[kLanes];
    for (int i = 1; i < kLanes; ++i) q[i] = DivideBy(s.range * model.Low(i), inv);
    for (int i = 1; i < kLanes; ++i) {
      symbol += v >= q[i];
      ql = (q[i] & Mask64(v >= q[i])) | (ql & Mask64(v < q[i]));
    }
    for (int i = kLanes - 1; i >= 1; --i) qh = (q[i] & Mask64(v < q[i])) | (qh & Mask64(v >= q[i]));
    Refill(s, in);
    Advance(s, ql, qh);
    model.Update(symbol);
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
  EncoderState st{low_, range_, pending_};
  if (size <= 3) {
    Cumulative3 local(model);
    EncodeTernary(st, local, symbols, n, offset, out_);
    StoreModel(local, model.freq_, model.total_);
  } else {
    Cumulative<kMaxLanes> local(model);
    EncodeSmall(st, local, symbols, n, offset, out_);
    StoreModel(local, model.freq_, model.total_);
  }
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
