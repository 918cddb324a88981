// Test helpers for the compressor tests (compression/compressors/*_test.cc). Header-only; tests
// only.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_COMPRESSOR_TEST_UTIL_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_COMPRESSOR_TEST_UTIL_H_

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/rng.h"
#include "compression/compressors/stream_lanes.h"

// Not commsim::testing: inside namespace commsim that name would hide gtest's ::testing.
namespace commsim::compressor_test {

// d independent N(0, scale^2) draws from Rng(seed), in order.
inline Eigen::VectorXd Gaussian(int64_t d, uint64_t seed, double scale = 1.0) {
  Rng rng(seed);
  Eigen::VectorXd x(d);
  for (int64_t i = 0; i < d; ++i) x[i] = scale * rng.Normal();
  return x;
}

// A block's norm as the wire carries it, written out: max |v_j| (inf) or the 2-norm, rounded up
// to fp32.
inline float NormUp(const Eigen::VectorXd& v, bool inf = false) {
  const double exact = inf ? v.cwiseAbs().maxCoeff() : v.norm();
  float norm = static_cast<float>(exact);
  if (norm < exact) norm = std::nextafter(norm, std::numeric_limits<float>::infinity());
  return norm;
}

// Inputs for the reference-operator tests: Gaussian(1000, 1), and Gaussian(kLaneDrawsMinDim +
// 1000, 2), long enough for the stream draws to be computed in lanes (stream_lanes.h), with the
// elements [zero_begin, zero_begin + zero_size) set to zero (a block that draws nothing).
inline std::vector<Eigen::VectorXd> ShortAndLongInputs(int64_t zero_begin, int64_t zero_size) {
  std::vector<Eigen::VectorXd> inputs = {Gaussian(1000, 1), Gaussian(kLaneDrawsMinDim + 1000, 2)};
  inputs[1].segment(zero_begin, zero_size).setZero();
  return inputs;
}

}  // namespace commsim::compressor_test

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_COMPRESSOR_TEST_UTIL_H_
