#include "algorithms/compressors/top_k.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"
#include "algorithms/coding/elias.h"
#include "algorithms/coding/golomb.h"
#include "algorithms/compressors/sparse_wire.h"
#include "algorithms/compressors/wire.h"

namespace commsim {
namespace {
constexpr std::string_view kIndexCodings[] = {"fixed", "golomb"};
}  // namespace

void TopKConfig::Describe(ParamVisitor& v) {
  v.Int("k", k, Range::NonNegative(), "entries kept (0: use fraction)");
  v.Real("fraction", fraction, Range::OpenClosed(0, 1), "fraction of d kept when k is 0");
  v.Text("index_coding", index_coding, kIndexCodings,
         "indices as fixed-width fields or golomb gaps");
}

TopK::TopK(const TopKConfig& config) : config_(config), golomb_(config.index_coding == "golomb") {}

int64_t TopK::KFor(int64_t dim) const { return ResolveK(config_.k, config_.fraction, dim); }

namespace {

// The k-th largest of `mags` (reorders it). REQUIRES: 1 <= k <= mags.size().
double KthLargest(std::vector<double>& mags, int64_t k) {
  std::nth_element(mags.begin(), mags.begin() + (k - 1), mags.end(), std::greater<double>());
  return mags[static_cast<size_t>(k - 1)];
}

}  // namespace

std::vector<uint32_t> TopK::Select(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t k = KFor(d);
  const double* p = x.data();
  // Candidates in increasing index order: all of x, or (for small k / large d) the entries at or
  // above a threshold estimated from a strided sample, when that provably holds the top k.
  std::vector<uint32_t> cand;
  constexpr int64_t kSample = 1 << 16;
  bool checked = false;  // x is known to be finite
  if (d > 4 * kSample && 8 * k < d) {
    const int64_t stride = d / kSample;
    std::vector<double> sample;
    sample.reserve(static_cast<size_t>(kSample + 1));
    uint64_t bad = 0;  // the sample must be finite before nth_element orders it
    for (int64_t i = 0; i < d; i += stride) {
      sample.push_back(std::abs(p[i]));
      bad |= NonFiniteFlag(p[i]);
    }
    if ((bad >> 63) != 0) RequireFinite(Name(), x);
    const int64_t rank = std::min<int64_t>(
        static_cast<int64_t>(sample.size()),
        2 * k * static_cast<int64_t>(sample.size()) / d + 32);  // aim at about 2k candidates
    const double guess = KthLargest(sample, rank);
    for (int64_t i = 0; i < d; ++i) {  // the candidates, and the input check in the same pass
      bad |= NonFiniteFlag(p[i]);
      if (std::abs(p[i]) >= guess) cand.push_back(static_cast<uint32_t>(i));
    }
    if ((bad >> 63) != 0) RequireFinite(Name(), x);
    checked = true;
    // Every entry outside cand is below guess <= every candidate: enough candidates suffice.
    if (static_cast<int64_t>(cand.size()) < k) cand.clear();
  }
  if (!checked) RequireFinite(Name(), x);
  if (cand.empty()) {
    cand.resize(static_cast<size_t>(d));
    for (int64_t i = 0; i < d; ++i) cand[i] = static_cast<uint32_t>(i);
  }
  if (static_cast<int64_t>(cand.size()) == k) return cand;
  // tau = the k-th largest magnitude; take every |x_i| > tau and the lowest-index ties at tau.
  std::vector<double> mags(cand.size());
  for (size_t j = 0; j < cand.size(); ++j) mags[j] = std::abs(p[cand[j]]);
  const double tau = KthLargest(mags, k);
  int64_t ties = k;
  for (uint32_t i : cand) ties -= std::abs(p[i]) > tau;
  std::vector<uint32_t> idx;
  idx.reserve(static_cast<size_t>(k));
  for (uint32_t i : cand) {
    const double m = std::abs(p[i]);
    if (m > tau || (m == tau && ties-- > 0)) idx.push_back(i);
  }
  return idx;
}

Message TopK::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                         const DecodeTarget* target) const {
  COMMSIM_CHECK(x.size() <= int64_t{1} << 32, "top_k supports d < 2^32");
  const std::vector<uint32_t> idx = Select(x);  // checks that x is finite
  BitWriter w;
  PutIndices(w, idx, x.size(), golomb_);
  return FinishSparseValues(w, Name(), idx, x, 1.0, target);
}

void TopK::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const std::vector<uint32_t> idx = GetIndices(r, KFor(d), d, golomb_);
  int64_t next = 0;
  for (uint32_t i : idx) {
    const float v = r.GetFloat();
    if (!std::isfinite(v)) throw DecodeError("corrupted message: non-finite value");
    out.PutZeros(next, i);
    out.Put(i, v);
    next = i + 1;
  }
  out.PutZeros(next, d);
  r.ExpectEnd();
}

double TopK::ErrorFactor(int64_t dim) const {
  return 1.0 - static_cast<double>(KFor(dim)) / static_cast<double>(dim);
}

Expectation TopK::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t k = KFor(d);
  const std::vector<uint32_t> idx = Select(x);
  Expectation e;
  e.squared_error = x.squaredNorm();
  int64_t prev = -1;
  double index_bits = 0.0;
  const GolombCode code(GolombParameterFor(static_cast<double>(k) / static_cast<double>(d)));
  for (uint32_t i : idx) {
    const double q = static_cast<float>(x[i]);
    e.squared_error += (q - x[i]) * (q - x[i]) - x[i] * x[i];
    e.nonzeros += q != 0.0;
    index_bits += golomb_ ? static_cast<double>(code.Bits(static_cast<uint64_t>(i - prev - 1)))
                          : CeilLog2(static_cast<uint64_t>(d));
    prev = i;
  }
  e.squared_error = std::max(e.squared_error, 0.0);
  e.payload_bits = 32.0 * static_cast<double>(k) + index_bits;
  e.bits_formula =
      golomb_ ? "32k + golomb gaps (exact for this x)" : "32k + k*ceil(log2 d) (exact)";
  return e;
}

}  // namespace commsim
