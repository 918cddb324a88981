#include "compression/compressors/qsgd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/coding/elias.h"
#include "compression/compressors/counter_kernels.h"
#include "compression/compressors/qsgd_elias.h"
#include "compression/compressors/uniform_draws.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {

constexpr std::string_view kNorms[] = {"2", "inf"};
constexpr std::string_view kCodings[] = {"elias", "fixed"};

// xi_j = floor(a_j) + Bernoulli(frac(a_j)), a_j = min(|v_j| * scale, s), from one stream draw
// in [0, 2^53): exactly Uniform() < frac, as both sides scale by a power of two.
inline uint64_t DrawLevel(double vj, double scale, double s, uint64_t draw) {
  const double a = std::min(std::abs(vj) * scale, s);
  const int64_t fl = static_cast<int64_t>(a);  // floor for a >= 0, without a libm call
  const bool up = static_cast<double>(draw) < (a - static_cast<double>(fl)) * StreamDraws::kOne;
  return static_cast<uint64_t>(fl + up);
}

// The signed levels ms[k] = xi << 1 | [v < 0 and xi > 0] of chunk [first, first + m) (values
// vc), in element order: a StreamDraws draws one level after the other; draws in memory (counter,
// or the stream in lanes) go through the vectorised kernel.
void SignedLevels(StreamDraws& src, int64_t /*first*/, const double* vc, int64_t m, double scale,
                  double s, uint32_t* ms) {
  for (int64_t k = 0; k < m; ++k) {
    const uint64_t xi = DrawLevel(vc[k], scale, s, src.Next(k));
    ms[k] = static_cast<uint32_t>(xi << 1 | static_cast<uint64_t>((vc[k] < 0) & (xi != 0)));
  }
}
template <KernelDraws Src>
void SignedLevels(Src& src, int64_t first, const double* vc, int64_t m, double scale, double s,
                  uint32_t* ms) {
  src.Prepare(first, m);
  counter_kernels::QsgdSignedLevels(vc, src.data(), m, scale, s, ms);
}

// The decoded value of a level, as both decoders give it: +0 for level 0, else +-unit * xi.
inline double LevelValue(uint64_t xi, bool negative, double unit) {
  const double v = (negative ? -unit : unit) * static_cast<double>(xi);
  return xi == 0 ? 0.0 : v;
}

// elias: draws one bucket's levels into the writer, chunk by chunk (`first` is the bucket's first
// element in the message). With a target, also delivers the decoded values.
template <bool kDecoded, class Src>
void DrawElias(const double* v, int64_t first, int64_t n, double scale, double s, double unit,
               Src& src, QsgdEliasWriter& ew, const DecodeTarget* target) {
  decltype(auto) local = LocalDraws(src);
  alignas(64) uint32_t ms[kDrawChunk];
  ew.Begin();
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t m = std::min(kDrawChunk, n - c);
    SignedLevels(local, first + c, v + c, m, scale, s, ms);
    ew.PutChunk(c, ms, m);
    if constexpr (kDecoded) {
      for (int64_t k = 0; k < m; ++k) target->Put(c + k, LevelValue(ms[k] >> 1, ms[k] & 1, unit));
    }
  }
  ew.End(n);
  Commit(src, local);
}

// The fixed coding's layout: fields of 1 + level_bits bits (level << 1 | sign), `per_word` to a
// 64-bit word from the start of each draw chunk (a chunk may end a word early: the stream is the
// same as one field after another); shift[k] is element k's bit offset in its word.
struct FixedLayout {
  explicit FixedLayout(int level_bits) : field(1 + level_bits), per_word(64 / field) {
    for (int64_t k = 0; k < kDrawChunk; ++k) shift[k] = static_cast<uint64_t>(k % per_word * field);
  }
  int field;
  int per_word;
  uint64_t shift[kDrawChunk];
};

// fixed: the words of one bucket, from a StreamDraws; with a target, also delivers the decoded
// values.
template <bool kDecoded>
void DrawFixed(const double* v, int64_t first, int64_t n, double scale, double s, double unit,
               const FixedLayout& layout, StreamDraws& src, BitWriter& w,
               const DecodeTarget* target) {
  const int field = layout.field;
  const int per_word = layout.per_word;
  StreamDraws local = LocalDraws(src);
  uint32_t ms[kDrawChunk];
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, n - c);
    SignedLevels(local, first + c, v + c, cm, scale, s, ms);
    for (int64_t j = 0; j < cm; j += per_word) {
      const int m = static_cast<int>(std::min<int64_t>(per_word, cm - j));
      uint64_t word = 0;
      for (int k = 0; k < m; ++k) word |= static_cast<uint64_t>(ms[j + k]) << (k * field);
      w.Put(word, m * field);
      if constexpr (kDecoded) {
        for (int k = 0; k < m; ++k) {
          target->Put(c + j + k, LevelValue(ms[j + k] >> 1, ms[j + k] & 1, unit));
        }
      }
    }
  }
  Commit(src, local);
}

// The OR of g[0..m), with a fixed trip count for the default s = 15 (12 fields of 5 bits).
inline uint64_t OrFields(const uint64_t* g, int m) {
  uint64_t word = 0;
  if (m == 12) {
    for (int k = 0; k < 12; ++k) word |= g[k];
    return word;
  }
  for (int k = 0; k < m; ++k) word |= g[k];
  return word;
}

// Draws in memory: every element's field from the vectorised kernel, already at its offset in
// its word, so a word is the OR of its fields (the same words as the template above).
template <bool kDecoded, KernelDraws Src>
void DrawFixed(const double* v, int64_t first, int64_t n, double scale, double s, double unit,
               const FixedLayout& layout, Src& src, BitWriter& w, const DecodeTarget* target) {
  const int field = layout.field;
  const int per_word = layout.per_word;
  uint64_t g[kDrawChunk];
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, n - c);
    src.Prepare(first + c, cm);
    counter_kernels::QsgdFields(v + c, src.data(), cm, scale, s, layout.shift, g);
    for (int64_t j = 0; j < cm; j += per_word) {
      const int m = static_cast<int>(std::min<int64_t>(per_word, cm - j));
      const uint64_t word = OrFields(g + j, m);
      w.Put(word, m * field);
      if constexpr (kDecoded) {
        const uint64_t mask = (uint64_t{1} << field) - 1;
        for (int k = 0; k < m; ++k) {
          const uint64_t f = (word >> (k * field)) & mask;
          target->Put(c + j + k, LevelValue(f >> 1, (f & 1) != 0, unit));
        }
      }
    }
  }
}

}  // namespace

void QsgdConfig::Describe(ParamVisitor& v) {
  v.Int("levels", levels, Range::Closed(1, 1 << 20), "number of quantization levels s");
  v.Int("bucket", bucket, Range::Closed(1, 1e12), "bucket size b (elements per norm)");
  v.Text("norm", norm, kNorms, "bucket norm: 2 or inf");
  v.Text("coding", coding, kCodings, "elias (the paper's code) or fixed (sign + level bits)");
  DescribeRngKey(v, rng);
}

Qsgd::Qsgd(const QsgdConfig& config)
    : DrawingCompressor("qsgd", /*unbiased=*/true, config.rng),
      levels_(config.levels),
      bucket_(config.bucket),
      norm_inf_(config.norm == "inf"),
      elias_(config.coding == "elias") {
  COMMSIM_CHECK(levels_ >= 1 && bucket_ >= 1, "bad qsgd config");
  if (elias_) {
    short_pairs_.resize(kShortPairEntries);
    MakeShortPairTable(static_cast<uint64_t>(levels_), short_pairs_.data());
  }
}

template <class Src>
Message Qsgd::EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                         const DecodeTarget* target) const {
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, bucket_);
  const int level_bits = CeilLog2(static_cast<uint64_t>(levels_) + 1);
  const double s = static_cast<double>(levels_);
  BitWriter w;
  w.Reserve(elias_ ? 32 * nb + 4 * d : 32 * nb + d * (1 + level_bits));
  QsgdEliasWriter ew(w);
  const std::optional<FixedLayout> layout =
      elias_ ? std::nullopt : std::optional<FixedLayout>(std::in_place, level_bits);
  for (const auto [b, begin, n] : Blocks(d, bucket_)) {
    const double* v = x.data() + begin;
    const float norm = CheckedBlockNorm(Name(), norm_inf_, v, n, x);
    w.PutFloat(norm);
    const std::optional<DecodeTarget> t =
        target == nullptr ? std::nullopt : std::optional(target->Segment(begin, n));
    if (norm == 0.0f) {
      if (t) t->PutZeros(0, n);
      if (!elias_) w.PutZeros(n * (1 + level_bits));
      continue;
    }
    const double scale = s / static_cast<double>(norm);
    const double unit = static_cast<double>(norm) / s;
    if (!elias_) {
      if (t) {
        DrawFixed<true>(v, begin, n, scale, s, unit, *layout, src, w, &*t);
      } else {
        DrawFixed<false>(v, begin, n, scale, s, unit, *layout, src, w, nullptr);
      }
      continue;
    }
    if (t) {
      DrawElias<true>(v, begin, n, scale, s, unit, src, ew, &*t);
    } else {
      DrawElias<false>(v, begin, n, scale, s, unit, src, ew, nullptr);
    }
  }
  return w.Finish();
}

void Qsgd::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  for (const auto [b, begin, n] : Blocks(d, bucket_)) {
    const double unit = static_cast<double>(ReadScale(r)) / static_cast<double>(levels_);
    if (elias_) {
      DecodeElias(r, n, unit, out.Segment(begin, n));
    } else {
      DecodeFixed(r, n, unit, out.Segment(begin, n));
    }
  }
  r.ExpectEnd();
}

// Several fields per read; the stream is the same as one field after another.
void Qsgd::DecodeFixed(BitReader& r, int64_t n, double unit, const DecodeTarget& o) const {
  const int field = 1 + CeilLog2(static_cast<uint64_t>(levels_) + 1);
  const int per_word = 64 / field;
  const uint64_t mask = (uint64_t{1} << field) - 1;
  uint64_t max_mag = 0;
  const double signed_units[2] = {unit, -unit};          // branch-free sign
  double* plain = o.plain() ? o.out().data() : nullptr;  // direct stores
  for (int64_t j = 0; j < n; j += per_word) {
    const int m = static_cast<int>(std::min<int64_t>(per_word, n - j));
    const uint64_t word = r.Get(m * field);
    for (int k = 0; k < m; ++k) {
      const uint64_t f = (word >> (k * field)) & mask;
      const uint64_t mag = f >> 1;
      max_mag = std::max(max_mag, mag);
      const double v = signed_units[f & 1] * static_cast<double>(mag);
      if (plain != nullptr) {
        plain[j + k] = v;
      } else {
        o.Put(j + k, v);
      }
    }
  }
  if (max_mag > static_cast<uint64_t>(levels_)) {
    throw DecodeError(fmt::format("corrupted message: level {} > {}", max_mag, levels_));
  }
}

void Qsgd::DecodeElias(BitReader& r, int64_t n, double unit, const DecodeTarget& o) const {
  if (unit == 0.0) {
    o.PutZeros(0, n);
    return;
  }
  // Compared before the cast: a 64-bit code above 2^63 would become a negative position.
  const uint64_t first = GetEliasOmega(r);
  if (first > static_cast<uint64_t>(n) + 1) {
    throw DecodeError(fmt::format("corrupted message: position {}", first - 1));
  }
  int64_t pos = static_cast<int64_t>(first) - 1;
  // A plain decode zeroes the bucket once and then writes the nonzeros; an update must compute
  // base + weight * 0 on the gaps itself (out may be base).
  const bool plain = o.plain();
  o.PutZeros(0, plain ? n : pos);
  double values[32];  // level | sign << 4 -> its value
  for (int k = 0; k < 32; ++k) values[k] = (k >= 16 ? -unit : unit) * static_cast<double>(k & 15);
  double* out = o.out().data();  // a plain decode's direct stores
  double scratch;                // a value not taken (GetShortPairs)
  const auto plain_put = [&](int64_t p, double v, int64_t, bool take) {
    *(take ? out + p : &scratch) = v;
  };
  const auto update_put = [&](int64_t p, double v, int64_t gap, bool take) {
    if (!take) return;
    o.Put(p, v);
    o.PutZeros(p + 1, p + gap);
  };
  const uint32_t* table = short_pairs_.data();
  while (true) {  // the common case from the table, each kind of decode its own loop
    pos = plain ? GetShortPairs(r, table, values, pos, n, plain_put)
                : GetShortPairs(r, table, values, pos, n, update_put);
    if (pos >= n) break;
    const bool negative = r.GetBit();
    const uint64_t mag = GetEliasOmega(r);
    const uint64_t gap = GetEliasOmega(r);
    if (mag > static_cast<uint64_t>(levels_) || gap > static_cast<uint64_t>(n - pos)) {
      throw DecodeError(fmt::format("corrupted message: level {} gap {}", mag, gap));
    }
    const double v = (negative ? -unit : unit) * static_cast<double>(mag);
    if (plain) {
      plain_put(pos, v, 0, true);
    } else {
      update_put(pos, v, static_cast<int64_t>(gap), true);
    }
    pos += static_cast<int64_t>(gap);
  }
}

double Qsgd::ErrorFactor(int64_t dim) const {
  const double b = static_cast<double>(std::min(bucket_, std::max<int64_t>(dim, 1)));
  const double s = static_cast<double>(levels_);
  return std::min(b / (s * s), std::sqrt(b) / s);
}

double Qsgd::EliasBound(int64_t n) const {
  const double s = static_cast<double>(levels_);
  const double b = static_cast<double>(n);
  const double nnz = s * (s + std::sqrt(b));
  return (3.0 + 1.5 * std::log2(2.0 * (s * s + b) / nnz)) * nnz + 32.0;
}

Expectation Qsgd::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const double s = static_cast<double>(levels_);
  const int level_bits = CeilLog2(static_cast<uint64_t>(levels_) + 1);
  Expectation e;
  for (const auto [b, begin, n] : Blocks(d, bucket_)) {
    const double* v = x.data() + begin;
    const double norm = CheckedBlockNorm(Name(), norm_inf_, v, n, x);
    e.payload_bits += elias_ ? EliasBound(n) : 32.0 + static_cast<double>(n * (1 + level_bits));
    if (norm == 0.0) continue;
    const double unit = norm / s;
    for (int64_t j = 0; j < n; ++j) {
      const double a = std::min(std::abs(v[j]) / unit, s);
      const double f = a - std::floor(a);
      e.squared_error += unit * unit * f * (1.0 - f);
      e.nonzeros += a >= 1.0 ? 1.0 : f;
    }
  }
  e.bits_formula = elias_ ? "per bucket (3 + 1.5 log2(2(s^2+b)/(s(s+sqrt b)))) s(s+sqrt b) + 32 "
                            "(paper's upper bound)"
                          : "per bucket 32 + |B|(1 + ceil(log2(s+1))) (exact)";
  return e;
}

template class DrawingCompressor<Qsgd>;  // EncodeImpl, with EncodeWith above

}  // namespace commsim
