#include "compression/compressors/dgc.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/coding/elias.h"
#include "compression/coding/golomb.h"
#include "compression/compressors/sparse_wire.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {
constexpr std::string_view kIndexCodings[] = {"fixed", "golomb"};
// The stream of Expected's sample draws (fixed, so Expected is deterministic).
constexpr uint64_t kExpectedSeed = 0x6467'6353'616D'706C;  // "dgcSampl"
}  // namespace

void DgcConfig::Describe(ParamVisitor& v) {
  v.Real("ratio", ratio, Range::OpenClosed(0, 1), "fraction of d kept at most (k = ratio d)");
  v.Real("sample_fraction", sample_fraction, Range::OpenClosed(0, 1),
         "fraction of d sampled to estimate the threshold");
  v.Int("min_sample", min_sample, Range::Closed(1, 1e12), "sample at least this many (or all d)");
  v.Text("index_coding", index_coding, kIndexCodings,
         "indices as fixed-width fields or golomb gaps");
}

Dgc::Dgc(const DgcConfig& config)
    : Compressor("dgc", /*unbiased=*/false),
      config_(config),
      golomb_(config.index_coding == "golomb") {}

int64_t Dgc::TargetCount(int64_t d) const { return ResolveK(0, config_.ratio, d); }

int64_t Dgc::SampleSize(int64_t d) const {
  const auto share = static_cast<int64_t>(std::ceil(config_.sample_fraction * d));
  return std::min(d, std::max(config_.min_sample, share));
}

int64_t Dgc::SampleCount(int64_t d) const { return ResolveK(0, config_.ratio, SampleSize(d)); }

int Dgc::CountBits(int64_t d) const { return CeilLog2(static_cast<uint64_t>(TargetCount(d)) + 1); }

TopKSelection Dgc::Select(const Eigen::Ref<const Eigen::VectorXd>& x, uint64_t seed) const {
  const int64_t d = x.size();
  const int64_t m = SampleSize(d);
  const int64_t ks = SampleCount(d);
  std::vector<double> sample(static_cast<size_t>(m));
  if (m == d) {
    for (int64_t j = 0; j < d; ++j) sample[j] = std::abs(x[j]);
  } else {
    const std::vector<uint32_t> at = SampleIndices(seed, m, d);
    for (int64_t j = 0; j < m; ++j) sample[j] = std::abs(x[at[j]]);
  }
  std::nth_element(sample.begin(), sample.begin() + (ks - 1), sample.end(), std::greater<>());
  const double threshold = sample[ks - 1];
  TopKSelection selected;
  for (int64_t j = 0; j < d; ++j) {
    const double a = std::abs(x[j]);
    if (a >= threshold && a > 0.0) {
      selected.idx.push_back(static_cast<uint32_t>(j));
      selected.values.push_back(x[j]);
    }
  }
  const int64_t k = TargetCount(d);
  if (static_cast<int64_t>(selected.idx.size()) <= k) return selected;
  // Too many: the exact top k among the selected (increasing positions keep the index order).
  const Eigen::Map<const Eigen::VectorXd> values(selected.values.data(),
                                                 static_cast<int64_t>(selected.values.size()));
  TopKSelection top = SelectTopK(Name(), values, k);
  for (uint32_t& i : top.idx) i = selected.idx[i];
  return top;
}

Message Dgc::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                        const DecodeTarget* target) const {
  RequireFinite(Name(), x);
  const int64_t d = x.size();
  COMMSIM_CHECK(d >= 1 && d <= int64_t{1} << 32, "dgc supports 1 <= d <= 2^32, got {}", d);
  const TopKSelection s = Select(x, rng.NextU64());
  BitWriter w;
  w.Reserve(CountBits(d) + 96 * static_cast<int64_t>(s.idx.size()));
  w.Put(s.idx.size(), CountBits(d));
  PutIndices(w, s.idx, d, golomb_);
  return FinishSparseValues(w, Name(), s.idx, x, 1.0, target, s.values);
}

void Dgc::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const auto count = static_cast<int64_t>(r.Get(CountBits(d)));
  if (count > TargetCount(d)) {
    throw DecodeError(
        fmt::format("corrupted message: dgc count {} above k = {}", count, TargetCount(d)));
  }
  GetSparseValues(r, GetIndices(r, count, d, golomb_), out);
}

double Dgc::ErrorFactor(int64_t dim) const {
  return 1.0 - static_cast<double>(SampleCount(dim)) / static_cast<double>(dim);
}

Expectation Dgc::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const bool exact = SampleSize(d) == d;
  const int64_t draws = exact ? 1 : std::clamp<int64_t>((int64_t{1} << 24) / d, 4, 16384);
  Rng rng(kExpectedSeed);
  Expectation e;
  for (int64_t t = 0; t < draws; ++t) {
    const TopKSelection s = Select(x, rng.NextU64());
    const auto kept = static_cast<int64_t>(s.idx.size());
    // The dropped entries' squares plus the kept ones' fp32 rounding (no cancellation).
    size_t next = 0;
    for (int64_t j = 0; j < d; ++j) {
      const double v = x[j];
      if (next < s.idx.size() && s.idx[next] == j) {
        const double q = static_cast<float>(v);
        e.squared_error += (q - v) * (q - v);
        e.nonzeros += q != 0.0;
        ++next;
      } else {
        e.squared_error += v * v;
      }
    }
    double index_bits = static_cast<double>(kept) * CeilLog2(static_cast<uint64_t>(d));
    if (golomb_ && kept > 0) {
      const GolombCode code(GolombParameterFor(static_cast<double>(kept) / d));
      index_bits = 0.0;
      int64_t prev = -1;
      for (uint32_t i : s.idx) {
        index_bits += static_cast<double>(code.Bits(static_cast<uint64_t>(i - prev - 1)));
        prev = i;
      }
    }
    e.payload_bits += CountBits(d) + index_bits + 32.0 * static_cast<double>(kept);
  }
  const double k = static_cast<double>(draws);
  e.squared_error /= k;
  e.nonzeros /= k;
  e.payload_bits /= k;
  const char* body =
      golomb_ ? "ceil(log2(k+1)) + golomb gaps + 32s" : "ceil(log2(k+1)) + s*(ceil(log2 d) + 32)";
  e.bits_formula = exact ? fmt::format("{}, s kept (exact for this x)", body)
                         : fmt::format("{}, s kept: mean over {} sample draws", body, draws);
  return e;
}

}  // namespace commsim
