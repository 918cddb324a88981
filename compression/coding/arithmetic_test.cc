#include "compression/coding/arithmetic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/rng.h"
#include "compression/coding/arithmetic_steps.h"
#include "compression/coding/arithmetic_test_util.h"

namespace commsim {
namespace {

using coding_test::EncodeSymbols;

std::vector<int> DrawSymbols(const std::vector<double>& p, int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<int> out(static_cast<size_t>(n));
  for (int& s : out) {
    double u = rng.Uniform();
    s = 0;
    while (s + 1 < static_cast<int>(p.size()) && u >= p[s]) u -= p[s++];
  }
  return out;
}

double SymbolEntropyBits(const std::vector<int>& symbols, int k) {
  std::vector<double> c(static_cast<size_t>(k), 0.0);
  for (int s : symbols) c[s] += 1.0;
  double bits = 0.0;
  for (double x : c) {
    if (x > 0) bits += x * std::log2(static_cast<double>(symbols.size()) / x);
  }
  return bits;
}

std::vector<int> DecodeAll(const Message& m, size_t n, int k) {
  BitReader r(m);
  AdaptiveModel model(k);
  ArithmeticDecoder dec(r);
  std::vector<int> out;
  for (size_t i = 0; i < n; ++i) out.push_back(dec.Decode(model));
  dec.Finish(r.size());
  r.ExpectEnd();
  return out;
}

TEST(ArithmeticTest, RoundTripsAndApproachesTheEmpiricalEntropy) {
  const std::vector<std::vector<double>> dists = {
      {0.5, 0.5}, {0.98, 0.01, 0.01}, {0.1, 0.8, 0.1}, {0.25, 0.25, 0.25, 0.25}};
  for (const auto& p : dists) {
    const int k = static_cast<int>(p.size());
    const std::vector<int> symbols = DrawSymbols(p, 100000, 11);
    const Message m = EncodeSymbols(symbols, k);
    EXPECT_EQ(DecodeAll(m, symbols.size(), k), symbols);
    const double bound = SymbolEntropyBits(symbols, k);
    EXPECT_LE(m.payload_bits, 1.01 * bound + 64) << "p[0] = " << p[0];
    EXPECT_GE(m.payload_bits, bound - 64);
  }
}

TEST(ArithmeticTest, ConstantStreamCostsAlmostNothing) {
  const std::vector<int> symbols(100000, 2);
  const Message m = EncodeSymbols(symbols, 3);
  EXPECT_LT(m.payload_bits, 400);
  EXPECT_EQ(DecodeAll(m, symbols.size(), 3), symbols);
}

TEST(ArithmeticTest, EmptyAndSingleSymbolStreams) {
  const Message empty = EncodeSymbols({}, 3);
  EXPECT_EQ(empty.payload_bits, 2);
  EXPECT_TRUE(DecodeAll(empty, 0, 3).empty());
  const Message one = EncodeSymbols({1}, 3);
  EXPECT_EQ(DecodeAll(one, 1, 3), std::vector<int>{1});
}

TEST(ArithmeticTest, TruncatedOrExtendedStreamIsADecodeError) {
  const std::vector<int> symbols = DrawSymbols({0.7, 0.2, 0.1}, 5000, 5);
  const Message m = EncodeSymbols(symbols, 3);
  for (int64_t cut : {int64_t{1}, int64_t{2}, int64_t{17}, m.payload_bits / 2}) {
    Message t = m;
    t.payload_bits -= cut;
    t.words.resize(static_cast<size_t>((t.payload_bits + 63) / 64));
    EXPECT_THROW(DecodeAll(t, symbols.size(), 3), DecodeError) << "cut " << cut;
  }
  Message longer = m;
  longer.payload_bits += 1;
  if (longer.words.size() * 64 < static_cast<size_t>(longer.payload_bits))
    longer.words.push_back(0);
  EXPECT_THROW(DecodeAll(longer, symbols.size(), 3), DecodeError);
}

// The textbook coder, bit at a time (the oracle for the encoder's closed-form renormalisation):
// while the top bits of low and high agree, emit that bit followed by the pending opposite bits;
// while low = 01.. and high = 10.., count a pending bit; shift after each step.
class ReferenceEncoder {
 public:
  explicit ReferenceEncoder(BitWriter& out) : out_(out) {}
  // [low, high] after narrowing to `symbol`, before renormalising.
  std::pair<uint64_t, uint64_t> Narrowed(const AdaptiveModel& model, int symbol) const {
    const uint64_t range = high_ - low_ + 1;
    const uint64_t lo = model.Low(symbol), hi = lo + model.Freq(symbol);
    return {low_ + range * lo / model.total(), low_ + range * hi / model.total() - 1};
  }
  void Encode(AdaptiveModel& model, int symbol) {
    std::tie(low_, high_) = Narrowed(model, symbol);
    while (true) {
      if (high_ < kHalf) {
        Emit(false);
      } else if (low_ >= kHalf) {
        Emit(true);
        low_ -= kHalf;
        high_ -= kHalf;
      } else if (low_ >= kHalf / 2 && high_ < kHalf + kHalf / 2) {
        ++pending_;
        max_pending_ = std::max(max_pending_, pending_);
        low_ -= kHalf / 2;
        high_ -= kHalf / 2;
      } else {
        break;
      }
      low_ <<= 1;
      high_ = (high_ << 1) | 1;
    }
    model.Update(symbol);
  }
  void Finish() {
    ++pending_;
    Emit(low_ >= kHalf / 2);
  }
  int64_t max_pending() const { return max_pending_; }
  static constexpr uint64_t kHalf = uint64_t{1} << 31;

 private:
  void Emit(bool bit) {
    out_.PutBit(bit);
    for (; pending_ > 0; --pending_) out_.PutBit(!bit);
  }
  BitWriter& out_;
  uint64_t low_ = 0, high_ = 0xFFFFFFFFu;
  int64_t pending_ = 0, max_pending_ = 0;
};

// Symbols chosen to keep the interval straddling the midpoint for `straddle` steps (each step
// then only adds pending bits: a run far longer than 64), then random ones.
std::vector<int> LongPendingRun(int k, int straddle, int n, int64_t* max_pending) {
  BitWriter sink;
  ReferenceEncoder ref(sink);
  AdaptiveModel model(k);
  Rng rng(3);
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    int symbol = static_cast<int>(rng.UniformInt(static_cast<uint64_t>(k)));
    for (int s = 0; i < straddle && s < k; ++s) {
      const auto [lo, hi] = ref.Narrowed(model, s);
      if (lo < ReferenceEncoder::kHalf && hi >= ReferenceEncoder::kHalf) symbol = s;
    }
    ref.Encode(model, symbol);
    out.push_back(symbol);
  }
  *max_pending = ref.max_pending();
  return out;
}

TEST(ArithmeticTest, WritesTheBitsOfTheBitAtATimeCoder) {
  std::vector<std::pair<int, std::vector<int>>> streams;  // (alphabet, symbols)
  for (int n : {0, 1, 63, 64, 65, 5000})
    streams.emplace_back(3, DrawSymbols({0.2, 0.7, 0.1}, n, 7));
  streams.emplace_back(2, DrawSymbols({0.999, 0.001}, 20000, 8));
  streams.emplace_back(5, DrawSymbols({0.2, 0.2, 0.2, 0.2, 0.2}, 20000, 9));
  streams.emplace_back(256, DrawSymbols(std::vector<double>(256, 1.0 / 256), 20000, 10));
  int64_t max_pending = 0;
  streams.emplace_back(3, LongPendingRun(3, 400, 3000, &max_pending));
  streams.emplace_back(256, LongPendingRun(256, 400, 3000, &max_pending));
  ASSERT_GT(max_pending, 64) << "the last stream must have a pending run longer than a word";
  for (const auto& [k, symbols] : streams) {
    const Message expected = EncodeSymbols<ReferenceEncoder>(symbols, k);
    const Message m = EncodeSymbols(symbols, k);
    EXPECT_EQ(m.payload_bits, expected.payload_bits) << "k = " << k << ", n = " << symbols.size();
    EXPECT_EQ(m.words, expected.words) << "k = " << k << ", n = " << symbols.size();
    EXPECT_EQ(DecodeAll(m, symbols.size(), k), symbols);
    if (k > 128) continue;  // EncodeRun takes int8 symbols
    // EncodeRun, in pieces (its state carries over), with an offset: the same bits.
    std::vector<int8_t> shifted;
    for (int s : symbols) shifted.push_back(static_cast<int8_t>(s - 1));
    BitWriter run_out;
    AdaptiveModel run_model(k);
    ArithmeticEncoder run(run_out);
    const int64_t half = static_cast<int64_t>(shifted.size()) / 2;
    run.EncodeRun(run_model, shifted.data(), half, 1);
    run.EncodeRun(run_model, shifted.data() + half, static_cast<int64_t>(shifted.size()) - half, 1);
    run.Finish();
    const Message by_run = run_out.Finish();
    EXPECT_EQ(by_run.payload_bits, expected.payload_bits) << "EncodeRun, k = " << k;
    EXPECT_EQ(by_run.words, expected.words) << "EncodeRun, k = " << k << ", n = " << symbols.size();
  }
}

// DecodeRun in pieces of `piece` symbols (its state carries over, and over Decode calls).
std::vector<int> DecodeByRuns(const Message& m, size_t n, int k, int64_t piece) {
  BitReader r(m);
  AdaptiveModel model(k);
  ArithmeticDecoder dec(r);
  std::vector<int8_t> out(n);
  const int offset = k > 128 ? 128 : 1;
  for (size_t begin = 0; begin < n; begin += static_cast<size_t>(piece)) {
    const int64_t len = std::min<int64_t>(piece, static_cast<int64_t>(n - begin));
    if (len == 1) {  // a single symbol through Decode between runs
      out[begin] = static_cast<int8_t>(dec.Decode(model) - offset);
      continue;
    }
    dec.DecodeRun(model, out.data() + begin, len, offset);
  }
  dec.Finish(r.size());
  r.ExpectEnd();
  std::vector<int> symbols;
  for (int8_t v : out) symbols.push_back(v + offset);
  return symbols;
}

Message EncodeByRun(const std::vector<int>& symbols, int k) {
  const int offset = k > 128 ? 128 : 1;
  std::vector<int8_t> shifted;
  for (int s : symbols) shifted.push_back(static_cast<int8_t>(s - offset));
  BitWriter w;
  AdaptiveModel model(k);
  ArithmeticEncoder enc(w);
  enc.EncodeRun(model, shifted.data(), static_cast<int64_t>(shifted.size()), offset);
  enc.Finish();
  return w.Finish();
}

// Every alphabet size the runs treat differently (2..3 in a vector, 4..8 in locals, more
// through Encode), uniform and skewed sources, lengths 0, 1, 2 and 2^20 (many model halvings):
// Encode and EncodeRun write the reference's bits, Decode and DecodeRun read the symbols back.
TEST(ArithmeticTest, RunsWriteTheReferenceBitsAndDecodeBack) {
  for (int k : {2, 3, 4, 5, 8, 9, 16, 256}) {
    const std::vector<double> uniform(static_cast<size_t>(k), 1.0 / k);
    std::vector<double> skewed(static_cast<size_t>(k), 0.05 / (k - 1));
    skewed[static_cast<size_t>(k / 2)] = 0.95;
    for (const auto& p : {uniform, skewed}) {
      for (int n : {0, 1, 2, 3000, 1 << 20}) {
        if (n == (1 << 20) && k != 3 && k != 256 && k != 5) continue;  // keep the test short
        const std::vector<int> symbols = DrawSymbols(p, n, static_cast<uint64_t>(31 * k + n));
        const Message expected = EncodeSymbols<ReferenceEncoder>(symbols, k);
        const std::string what = "k = " + std::to_string(k) + ", n = " + std::to_string(n) +
                                 ", p[0] = " + std::to_string(p[0]);
        const Message by_symbol = EncodeSymbols(symbols, k);
        EXPECT_EQ(by_symbol.payload_bits, expected.payload_bits) << what;
        EXPECT_EQ(by_symbol.words, expected.words) << what;
        const Message by_run = EncodeByRun(symbols, k);
        EXPECT_EQ(by_run.payload_bits, expected.payload_bits) << what;
        EXPECT_EQ(by_run.words, expected.words) << what;
        EXPECT_EQ(DecodeByRuns(expected, symbols.size(), k, 1 << 20), symbols) << what;
        if (n <= 3000) {
          EXPECT_EQ(DecodeAll(expected, symbols.size(), k), symbols) << what;
          EXPECT_EQ(DecodeByRuns(expected, symbols.size(), k, 7), symbols) << what;
          EXPECT_EQ(DecodeByRuns(expected, symbols.size(), k, 1), symbols) << what;
        }
      }
    }
  }
}

// Long pending runs and constant streams (the interval pinned near the middle or an edge) through
// the runs: the reference's bits, and back.
TEST(ArithmeticTest, RunsHandlePendingRunsLongerThanAWord) {
  for (int k : {2, 3, 8, 256}) {
    int64_t max_pending = 0;
    std::vector<std::vector<int>> streams = {LongPendingRun(k, 2000, 6000, &max_pending),
                                             std::vector<int>(70000, k - 1),
                                             std::vector<int>(70000, 0)};
    if (k > 8) {  // small alphabets settle bits sooner
      EXPECT_GT(max_pending, 64) << "k = " << k;
    }
    for (const auto& symbols : streams) {
      const Message expected = EncodeSymbols<ReferenceEncoder>(symbols, k);
      const Message by_run = EncodeByRun(symbols, k);
      EXPECT_EQ(by_run.payload_bits, expected.payload_bits) << "k = " << k;
      EXPECT_EQ(by_run.words, expected.words) << "k = " << k;
      EXPECT_EQ(DecodeByRuns(expected, symbols.size(), k, 100), symbols) << "k = " << k;
    }
  }
}

// The largest renormalisations: a model skewed by a long constant stream, then bursts of its
// least likely symbol (each then shifts out about 16 bits: more than the runs hold back for four
// symbols at a time), through EncodeRun: the reference's bits.
TEST(ArithmeticTest, RunsHandleTheLargestShifts) {
  for (int k : {2, 3, 8}) {
    std::vector<int> symbols(70000, 0);
    for (int burst = 1; burst <= 8; ++burst) {
      symbols.insert(symbols.end(), static_cast<size_t>(burst), k - 1);
      symbols.insert(symbols.end(), 300, 0);
    }
    const Message expected = EncodeSymbols<ReferenceEncoder>(symbols, k);
    const Message by_run = EncodeByRun(symbols, k);
    EXPECT_EQ(by_run.payload_bits, expected.payload_bits) << "k = " << k;
    EXPECT_EQ(by_run.words, expected.words) << "k = " << k;
  }
}

// Encode and EncodeRun mixed on one encoder (the held bits carry over), over long pending runs
// and random symbols: the reference's bits.
TEST(ArithmeticTest, MixedEncodeAndRunsWriteTheReferenceBits) {
  for (int k : {2, 3, 8}) {
    int64_t max_pending = 0;
    std::vector<int> symbols = LongPendingRun(k, 1500, 4000, &max_pending);
    const std::vector<int> more = DrawSymbols(std::vector<double>(k, 1.0 / k), 70000, 41);
    symbols.insert(symbols.end(), more.begin(), more.end());
    const Message expected = EncodeSymbols<ReferenceEncoder>(symbols, k);
    BitWriter w;
    AdaptiveModel model(k);
    ArithmeticEncoder enc(w);
    Rng rng(static_cast<uint64_t>(k));
    for (size_t i = 0; i < symbols.size();) {
      const size_t len = std::min(symbols.size() - i, 1 + rng.UniformInt(300));
      if (rng.UniformInt(2) == 0) {
        for (size_t j = i; j < i + len; ++j) enc.Encode(model, symbols[j]);
      } else {
        std::vector<int8_t> piece;
        for (size_t j = i; j < i + len; ++j) piece.push_back(static_cast<int8_t>(symbols[j]));
        enc.EncodeRun(model, piece.data(), static_cast<int64_t>(len), 0);
      }
      i += len;
    }
    enc.Finish();
    const Message m = w.Finish();
    EXPECT_EQ(m.payload_bits, expected.payload_bits) << "k = " << k;
    EXPECT_EQ(m.words, expected.words) << "k = " << k;
  }
}

// The closed-form shift count against the bit-at-a-time loop, on intervals with every split of
// settled and pending bits and on random ones.
TEST(ArithmeticTest, ShiftCountCountsTheLoopsSteps) {
  auto loop = [](uint64_t low, uint64_t high, int* k) {
    constexpr uint64_t kHalf = uint64_t{1} << 31, kQuarter = uint64_t{1} << 30;
    int steps = 0;
    *k = 0;
    while (true) {
      if (high < kHalf || low >= kHalf) {
        ++*k;
        low &= kHalf - 1;
        high &= kHalf - 1;
      } else if (low >= kQuarter && high < kHalf + kQuarter) {
        low -= kQuarter;
        high -= kQuarter;
      } else {
        break;
      }
      low <<= 1;
      high = (high << 1) | 1;
      ++steps;
    }
    return steps;
  };
  std::vector<std::pair<uint64_t, uint64_t>> cases;
  for (int k = 0; k < 32; ++k) {
    for (int m = 0; k + m < 32; ++m) {
      // k agreeing bits (a pattern), then 0 / 1 in low / high, m bits of 1 / 0, then the rest
      const uint64_t prefix = (uint64_t{0xA5A5A5A5} >> (32 - k)) << (32 - k) & 0xFFFFFFFFu;
      const int rest = 31 - k - m;
      const uint64_t run = ((uint64_t{1} << m) - 1) << rest;
      for (uint64_t tail : {uint64_t{0}, (uint64_t{1} << rest) - 1,
                            uint64_t{0x12345} & ((uint64_t{1} << rest) - 1)}) {
        const uint64_t low = prefix | run | tail;
        const uint64_t high =
            prefix | (uint64_t{1} << (31 - k)) | (((uint64_t{1} << rest) - 1) & ~tail);
        if (low < high) cases.emplace_back(low, high);
      }
    }
  }
  Rng rng(17);
  for (int i = 0; i < 100000; ++i) {
    uint64_t a = rng.UniformInt(uint64_t{1} << 32), b = rng.UniformInt(uint64_t{1} << 32);
    if (a == b) continue;
    cases.emplace_back(std::min(a, b), std::max(a, b));
  }
  for (const auto& [low, high] : cases) {
    int k = 0;
    const int s = loop(low, high, &k);
    ASSERT_EQ(arithmetic_steps::ShiftCount(low, high), s) << low << " " << high;
    // the encoder's absolute low: the same interval 2^31 further up (past 2^32 too)
    const uint64_t up = uint64_t{1} << 31;
    ASSERT_EQ(arithmetic_steps::ShiftCount(low + up, high + up), s) << low << " " << high;
  }
}

// The reciprocal table against plain integer division: every total, at the edges of the
// multiplication's range (a = range * count, range <= 2^32, count <= total) and at random; and
// each total's run of reciprocals (t, t + kIncrement, ...) as the table's entries of those totals.
TEST(ArithmeticTest, ReciprocalTableDividesExactly) {
  using arithmetic_steps::kIncrement;
  using arithmetic_steps::kMaxTotal;
  using arithmetic_steps::Reciprocals;
  Rng rng(23);
  for (uint64_t t = 2; t <= kMaxTotal; ++t) {
    const uint64_t inv = Reciprocals(static_cast<uint32_t>(t))[0];
    const uint64_t top = (uint64_t{1} << 32) * t;
    std::vector<uint64_t> as = {0, 1, t - 1, t, t + 1, 2 * t - 1, top - t, top - 1, top};
    for (int i = 0; i < 4; ++i) {
      const uint64_t range = rng.UniformInt(uint64_t{1} << 32) + 1;
      as.push_back(range * rng.UniformInt(t + 1));
    }
    for (uint64_t a : as) {
      ASSERT_EQ(arithmetic_steps::DivideBy(a, inv), a / t) << a << " / " << t;
    }
  }
  for (uint32_t t : {2u, 3u, 33u, 1000u, kMaxTotal - 2 * kIncrement, kMaxTotal}) {
    const uint64_t* run = Reciprocals(t);
    for (uint32_t k = 0; t + k * kIncrement <= kMaxTotal; ++k) {
      ASSERT_EQ(run[k], Reciprocals(t + k * kIncrement)[0]) << t << " + " << k << " steps";
    }
  }
}

}  // namespace
}  // namespace commsim
