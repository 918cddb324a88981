// The selection step of top_k (top_k.h): the k entries of x of largest magnitude (ties: the lower
// index), in increasing index order, with their values.
//
// Exact for every input: only the speed depends on x. The steps:
//   1. For large d and k < d/8, a sample of kSampleRuns runs of kSampleRun consecutive elements,
//      run r starting at r (d - kSampleRun) / (kSampleRuns - 1), gives a magnitude `guess`: the
//      sample's (1.25 e + 4 sqrt(e) + 32)-th largest, e = k (sample size) / d its expected share
//      of the top k, so that about 1.25 k elements of x reach it; otherwise guess = 0 (every
//      element is a candidate).
//   2. One pass over x collects the candidates |x_i| >= guess (indices and values) and checks that
//      x is finite (NonFiniteError naming `compressor` otherwise). It is vectorised and compiled
//      for several instruction sets; comparisons and bit tests are exact, so every version gives
//      the same set. When the candidates are fewer than k (the sample misjudged x) or more than
//      a cap of about four times the aim, the pass is redone with guess = 0.
//   3. tau = the k-th largest candidate magnitude (a histogram over the magnitudes' bits picks one
//      bucket, std::nth_element finishes inside it); every candidate with |x_i| > tau is kept, and
//      the lowest-index ones equal to tau up to k in all. Every non-candidate is below guess <=
//      every candidate, so this is the top k of x.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_TOP_K_SELECT_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_TOP_K_SELECT_H_

#include <Eigen/Core>
#include <cstdint>
#include <string_view>
#include <vector>

namespace commsim {

struct TopKSelection {
  std::vector<uint32_t> idx;   // increasing
  std::vector<double> values;  // values[j] = x[idx[j]]
};

inline constexpr int64_t kSampleRuns = 256;
inline constexpr int64_t kSampleRun = 64;

// REQUIRES: 1 <= k <= x.size() < 2^32.
TopKSelection SelectTopK(std::string_view compressor, const Eigen::Ref<const Eigen::VectorXd>& x,
                         int64_t k);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_TOP_K_SELECT_H_
