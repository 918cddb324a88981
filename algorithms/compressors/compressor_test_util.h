// Test helpers for the compressor tests (algorithms/compressors/*_test.cc). Header-only; tests
// only.
#ifndef COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_TEST_UTIL_H_
#define COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_TEST_UTIL_H_

#include <Eigen/Core>
#include <cstdint>

#include "sim/rng.h"

// Not commsim::testing: inside namespace commsim that name would hide gtest's ::testing.
namespace commsim::compressor_test {

// d independent N(0, scale^2) draws from Rng(seed), in order.
inline Eigen::VectorXd Gaussian(int64_t d, uint64_t seed, double scale = 1.0) {
  Rng rng(seed);
  Eigen::VectorXd x(d);
  for (int64_t i = 0; i < d; ++i) x[i] = scale * rng.Normal();
  return x;
}

}  // namespace commsim::compressor_test

#endif  // COMMSIM_ALGORITHMS_COMPRESSORS_COMPRESSOR_TEST_UTIL_H_
