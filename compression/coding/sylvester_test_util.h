// Sylvester's Hadamard matrix for the tests of the transform and of the `hadamard` compressor,
// built by its recursion, independently of the transform under test. Header-only; tests only.
#ifndef COMMSIM_COMPRESSION_CODING_SYLVESTER_TEST_UTIL_H_
#define COMMSIM_COMPRESSION_CODING_SYLVESTER_TEST_UTIL_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace commsim::test_hadamard {

// H_1 = [1], H_2m = [[H_m, H_m], [H_m, -H_m]]: entries +-1, row-major n x n (n a power of two).
template <class T = int>
std::vector<T> Sylvester(int64_t n) {
  std::vector<T> h = {T(1)};
  for (int64_t m = 1; m < n; m *= 2) {
    std::vector<T> next(static_cast<size_t>(4 * m * m));
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        const T e = h[static_cast<size_t>(i * m + j)];
        next[static_cast<size_t>(i * 2 * m + j)] = e;
        next[static_cast<size_t>(i * 2 * m + j + m)] = e;
        next[static_cast<size_t>((i + m) * 2 * m + j)] = e;
        next[static_cast<size_t>((i + m) * 2 * m + j + m)] = -e;
      }
    }
    h = std::move(next);
  }
  return h;
}

}  // namespace commsim::test_hadamard

#endif  // COMMSIM_COMPRESSION_CODING_SYLVESTER_TEST_UTIL_H_
