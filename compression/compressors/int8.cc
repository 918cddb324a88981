#include "compression/compressors/int8.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/uniform_draws.h"
#include "compression/compressors/wire.h"

namespace commsim {

void Int8Config::Describe(ParamVisitor& v) {
  v.Int("block", block, Range::Closed(1, 1e12), "block size b (elements per scale)");
  v.Bool("stochastic", stochastic,
         "round to one of the two nearest levels at random (unbiased) instead of the nearest");
  DescribeRngKey(v, rng);
}

Int8::Int8(const Int8Config& config)
    : Compressor("int8", /*unbiased=*/config.stochastic),
      block_(config.block),
      stochastic_(config.stochastic),
      counter_(UsesCounterRng(config.rng)) {}

namespace {

constexpr int kPerWord = 8;  // 8-bit codes per 64-bit field

// The deterministic mode's source: draws nothing.
struct NoDraws {
  static constexpr double kOne = 0.0;
  void Prepare(int64_t /*first*/, int64_t /*m*/) {}
  uint64_t Next(int64_t /*k*/) const { return 0; }
};
NoDraws& LocalDraws(NoDraws& src) { return src; }
void Commit(NoDraws& /*src*/, const NoDraws& /*local*/) {}

// t = |x| / m * 127, in [0, 127] when |x| <= m (division and product are monotone).
inline double LevelPosition(double x, double m) { return std::abs(x) / m * Int8::kLevels; }

// floor(t) for t in [0, 127]: truncation (a conversion, where floor would be a library call on
// baseline x86-64).
inline int Whole(double t) { return static_cast<int>(t); }

// The nearest level to t >= 0, halves up.
inline int NearestLevel(double t) {
  const int whole = Whole(t);
  return whole + (t - whole >= 0.5 ? 1 : 0);
}

// The decoded value of level q in a block of scale m (the decoder's expression).
inline double LevelValue(int q, double m) { return static_cast<double>(q) * m / Int8::kLevels; }

// One block's codes, 8 per field, the draws from src (NoDraws: the nearest level); with a target
// (the block's segment), also the decoded values. REQUIRES: m > 0 and m >= |xb[j]|.
template <bool kDecoded, class Src>
void PutCodes(const double* xb, int64_t first, int64_t n, double m, Src& src, BitWriter& w,
              const DecodeTarget* target) {
  decltype(auto) local = LocalDraws(src);
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, n - c);
    local.Prepare(first + c, cm);
    for (int64_t j = 0; j < cm; j += kPerWord) {
      const int fields = static_cast<int>(std::min<int64_t>(kPerWord, cm - j));
      uint64_t word = 0;
      for (int k = 0; k < fields; ++k) {
        const double v = xb[c + j + k];
        const double t = LevelPosition(v, m);
        int q;
        if constexpr (std::is_same_v<Src, NoDraws>) {
          q = NearestLevel(t);
        } else {
          const int whole = Whole(t);
          const bool up = static_cast<double>(local.Next(j + k)) < (t - whole) * Src::kOne;
          q = whole + (up ? 1 : 0);
        }
        if (std::signbit(v)) q = -q;
        word |= static_cast<uint64_t>(static_cast<uint8_t>(static_cast<int8_t>(q))) << (8 * k);
        if constexpr (kDecoded) target->Put(c + j + k, LevelValue(q, m));
      }
      w.Put(word, 8 * fields);
    }
  }
  Commit(src, local);
}

}  // namespace

template <class Src>
Message Int8::EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                         const DecodeTarget* target) const {
  const int64_t d = x.size();
  BitWriter w;
  w.Reserve(32 * NumBlocks(d, block_) + 8 * d);
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const double* xb = x.data() + begin;
    const float m = CheckedBlockNorm(Name(), /*inf_norm=*/true, xb, n, x);
    w.PutFloat(m);
    const std::optional<DecodeTarget> segment =
        target == nullptr ? std::nullopt : std::optional(target->Segment(begin, n));
    if (m == 0.0f) {  // an all-zero block draws nothing
      w.PutZeros(8 * n);
      if (segment) segment->PutZeros(0, n);
    } else if (segment) {
      PutCodes<true>(xb, begin, n, m, src, w, &*segment);
    } else {
      PutCodes<false>(xb, begin, n, m, src, w, nullptr);
    }
  }
  return w.Finish();
}

Message Int8::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                         const DecodeTarget* target) const {
  if (!stochastic_) {
    NoDraws none;
    return EncodeWith(x, none, target);
  }
  return WithDraws(counter_, x.size(), rng, [&](auto& src) { return EncodeWith(x, src, target); });
}

void Int8::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  for (const auto [b, begin, n] : Blocks(out.size(), block_)) {
    const double m = ReadScale(r);
    const DecodeTarget o = out.Segment(begin, n);
    for (int64_t j = 0; j < n; j += kPerWord) {
      const int fields = static_cast<int>(std::min<int64_t>(kPerWord, n - j));
      const uint64_t word = r.Get(8 * fields);
      for (int k = 0; k < fields; ++k) {
        const auto q = static_cast<int8_t>(word >> (8 * k));
        if (q == -128) {
          throw DecodeError(
              fmt::format("corrupted message: int8 code 0x80 at value {}", begin + j + k));
        }
        o.Put(j + k, LevelValue(q, m));
      }
    }
  }
  r.ExpectEnd();
}

double Int8::ErrorFactor(int64_t dim) const {
  const double b = static_cast<double>(std::min(block_, std::max<int64_t>(dim, 1)));
  return (b - 1.0) / (4.0 * kLevels * kLevels);
}

Expectation Int8::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  Expectation e;
  for (const auto [b, begin, n] : Blocks(d, block_)) {
    const double* xb = x.data() + begin;
    const double m = CheckedBlockNorm(Name(), /*inf_norm=*/true, xb, n, x);
    if (m == 0.0) continue;
    for (int64_t j = 0; j < n; ++j) {
      const double t = LevelPosition(xb[j], m);
      const int sign = std::signbit(xb[j]) ? -1 : 1;
      if (!stochastic_) {
        const int q = NearestLevel(t);
        const double err = LevelValue(sign * q, m) - xb[j];
        e.squared_error += err * err;
        e.nonzeros += q != 0 ? 1.0 : 0.0;
        continue;
      }
      const int lo = Whole(t);
      const double p = t - lo;  // probability of the level above
      const double err_lo = LevelValue(sign * lo, m) - xb[j];
      const double err_hi = LevelValue(sign * (lo + 1), m) - xb[j];
      e.squared_error += (1.0 - p) * err_lo * err_lo + p * err_hi * err_hi;
      e.nonzeros += lo > 0 ? 1.0 : p;
    }
  }
  e.payload_bits = 32.0 * static_cast<double>(NumBlocks(d, block_)) + 8.0 * static_cast<double>(d);
  e.bits_formula = "32*ceil(d/b) + 8d (exact)";
  return e;
}

}  // namespace commsim
