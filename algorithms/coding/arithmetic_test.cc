#include "algorithms/coding/arithmetic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/rng.h"

namespace commsim {
namespace {

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

Message EncodeAll(const std::vector<int>& symbols, int k) {
  BitWriter w;
  AdaptiveModel model(k);
  ArithmeticEncoder enc(w);
  for (int s : symbols) enc.Encode(model, s);
  enc.Finish();
  return w.Finish();
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
    const Message m = EncodeAll(symbols, k);
    EXPECT_EQ(DecodeAll(m, symbols.size(), k), symbols);
    const double bound = SymbolEntropyBits(symbols, k);
    EXPECT_LE(m.payload_bits, 1.01 * bound + 64) << "p[0] = " << p[0];
    EXPECT_GE(m.payload_bits, bound - 64);
  }
}

TEST(ArithmeticTest, ConstantStreamCostsAlmostNothing) {
  const std::vector<int> symbols(100000, 2);
  const Message m = EncodeAll(symbols, 3);
  EXPECT_LT(m.payload_bits, 400);
  EXPECT_EQ(DecodeAll(m, symbols.size(), 3), symbols);
}

TEST(ArithmeticTest, EmptyAndSingleSymbolStreams) {
  const Message empty = EncodeAll({}, 3);
  EXPECT_EQ(empty.payload_bits, 2);
  EXPECT_TRUE(DecodeAll(empty, 0, 3).empty());
  const Message one = EncodeAll({1}, 3);
  EXPECT_EQ(DecodeAll(one, 1, 3), std::vector<int>{1});
}

TEST(ArithmeticTest, TruncatedOrExtendedStreamIsADecodeError) {
  const std::vector<int> symbols = DrawSymbols({0.7, 0.2, 0.1}, 5000, 5);
  const Message m = EncodeAll(symbols, 3);
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

}  // namespace
}  // namespace commsim
