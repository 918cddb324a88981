#include "compression/compressors/top_k_select.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>

#include "base/finite.h"
#include "base/target_clones.h"
#include "compression/compressors/magnitude_masks.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {

// Appends the candidates of p[0, d) (|p[i]| >= guess) to idx/values, 64 elements per mask
// (magnitude_masks.h); stops with false when more than `cap` would be collected. *bad collects
// flags whose bit 63 is set when some element read is NaN or Inf. REQUIRES: idx and values hold cap
// entries. Only exact operations (|v|, >=, bit tests).
COMMSIM_TARGET_CLONES
bool CollectCandidates(const double* __restrict p, int64_t d, double guess, int64_t cap,
                       uint32_t* __restrict idx, double* __restrict values, int64_t* count,
                       uint64_t* bad) {
  uint64_t flags = 0;
  int64_t n = 0;
  for (int64_t g = 0; g < d; g += 64) {
    const int m = static_cast<int>(std::min<int64_t>(64, d - g));
    uint64_t hits = 0;
    if (m == 64) {
      hits = AtLeastMask64(p + g, guess, &flags);
    } else {
      for (int k = 0; k < m; ++k) {
        flags |= NonFiniteFlag(p[g + k]);
        hits |= static_cast<uint64_t>(std::abs(p[g + k]) >= guess) << k;
      }
    }
    if (n + std::popcount(hits) > cap) {
      *bad |= flags;
      return false;
    }
    for (; hits != 0; hits &= hits - 1) {
      const int64_t i = g + std::countr_zero(hits);
      idx[n] = static_cast<uint32_t>(i);
      values[n] = p[i];
      ++n;
    }
  }
  *count = n;
  *bad |= flags;
  return true;
}

// The magnitude threshold estimated from the sample runs (step 1 of the header), or 0.
double Guess(std::string_view compressor, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t k) {
  const int64_t d = x.size();
  const int64_t size = kSampleRuns * kSampleRun;
  if (d <= 16 * size || 8 * k >= d) return 0.0;
  std::vector<double> sample(static_cast<size_t>(size));
  uint64_t bad = 0;  // the sample must be finite before nth_element orders it
  for (int64_t r = 0; r < kSampleRuns; ++r) {
    const double* run = x.data() + r * (d - kSampleRun) / (kSampleRuns - 1);
    for (int64_t j = 0; j < kSampleRun; ++j) {
      bad |= NonFiniteFlag(run[j]);
      sample[static_cast<size_t>(r * kSampleRun + j)] = std::abs(run[j]);
    }
  }
  if ((bad >> 63) != 0) RequireFinite(compressor, x);
  const double expected =
      static_cast<double>(k) * static_cast<double>(size) / static_cast<double>(d);
  const int64_t rank =
      std::min(size, static_cast<int64_t>(1.25 * expected + 4.0 * std::sqrt(expected)) + 32);
  std::nth_element(sample.begin(), sample.begin() + (rank - 1), sample.end(),
                   std::greater<double>());
  return sample[static_cast<size_t>(rank - 1)];
}

// The k-th largest of |values[0, n)| (step 3 of the header). REQUIRES: 1 <= k <= n, finite values.
double KthLargestMagnitude(const std::vector<double>& values, int64_t n, int64_t k) {
  // Non-negative finite doubles order as their bit patterns do.
  auto key = [&](int64_t j) { return std::bit_cast<uint64_t>(std::abs(values[j])); };
  uint64_t lo = ~uint64_t{0}, hi = 0;
  for (int64_t j = 0; j < n; ++j) {
    lo = std::min(lo, key(j));
    hi = std::max(hi, key(j));
  }
  constexpr int kBucketBits = 11;
  const int shift = std::max(0, static_cast<int>(std::bit_width(hi - lo)) - kBucketBits);
  std::vector<int64_t> count(size_t{1} << kBucketBits, 0);
  for (int64_t j = 0; j < n; ++j) ++count[(key(j) - lo) >> shift];
  uint64_t bucket = (hi - lo) >> shift;
  int64_t above = 0;  // candidates in buckets above `bucket`
  while (above + count[bucket] < k) above += count[bucket--];
  std::vector<double> mags;
  mags.reserve(static_cast<size_t>(count[bucket]));
  for (int64_t j = 0; j < n; ++j) {
    if (((key(j) - lo) >> shift) == bucket) mags.push_back(std::abs(values[j]));
  }
  const int64_t rank = k - above;  // 1 <= rank <= mags.size()
  std::nth_element(mags.begin(), mags.begin() + (rank - 1), mags.end(), std::greater<double>());
  return mags[static_cast<size_t>(rank - 1)];
}

}  // namespace

TopKSelection SelectTopK(std::string_view compressor, const Eigen::Ref<const Eigen::VectorXd>& x,
                         int64_t k) {
  const int64_t d = x.size();
  double guess = Guess(compressor, x, k);
  int64_t cap = d;
  if (guess > 0.0) {
    const double aim = static_cast<double>(k) * 1.25 + 4.0 * std::sqrt(static_cast<double>(k));
    cap = std::min(d, 4 * static_cast<int64_t>(aim) + 1024);
  }
  std::vector<uint32_t> cand(static_cast<size_t>(cap));
  std::vector<double> values(static_cast<size_t>(cap));
  int64_t n = 0;
  uint64_t bad = 0;
  if (!CollectCandidates(x.data(), d, guess, cap, cand.data(), values.data(), &n, &bad) || n < k) {
    if ((bad >> 63) != 0) RequireFinite(compressor, x);  // the pass may have stopped early
    guess = 0.0;
    cand.resize(static_cast<size_t>(d));
    values.resize(static_cast<size_t>(d));
    CollectCandidates(x.data(), d, guess, d, cand.data(), values.data(), &n, &bad);
  }
  if ((bad >> 63) != 0) RequireFinite(compressor, x);
  if (n == k) {
    cand.resize(static_cast<size_t>(n));
    values.resize(static_cast<size_t>(n));
    return {std::move(cand), std::move(values)};
  }
  // tau = the k-th largest magnitude; take every |x_i| > tau and the lowest-index ties at tau.
  const double tau = KthLargestMagnitude(values, n, k);
  int64_t ties = k;
  for (int64_t j = 0; j < n; ++j) ties -= std::abs(values[j]) > tau;
  TopKSelection s;
  s.idx.resize(static_cast<size_t>(k));
  s.values.resize(static_cast<size_t>(k));
  int64_t m = 0;
  for (int64_t j = 0; j < n && m < k; ++j) {
    const double a = std::abs(values[j]);
    if (a > tau || (a == tau && ties-- > 0)) {
      s.idx[m] = cand[j];
      s.values[m] = values[j];
      ++m;
    }
  }
  return s;
}

}  // namespace commsim
