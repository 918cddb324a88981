// WorkerVectors::AddToSquaredNorm against the two passes it fuses (AddTo, then Eigen's own
// squaredNorm of the result), bit for bit, for short and long vectors, at any address, with
// double and float storage; SubtractChunk's pieces, fed to one PairedSquaredNorm, against the
// same two passes.
#include "algorithms/ps/worker_vectors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "base/rng.h"
#include "compression/compressors/identity.h"

namespace commsim {
namespace {

// Values over many magnitudes, so that the order of a sum of their squares shows in its bits.
Eigen::VectorXd WideValues(int64_t d, uint64_t seed) {
  Rng rng(seed);
  Eigen::VectorXd v(d);
  for (int64_t j = 0; j < d; ++j) {
    v[j] = rng.Normal() * std::ldexp(1.0, static_cast<int>(j % 23) - 11);
  }
  return v;
}

// Worker 1's vector set to `values` (0 + 1 * the exact 64-bit identity decode).
void SetWorkerVector(WorkerVectors& vectors, const Eigen::VectorXd& values) {
  IdentityConfig config;
  config.precision = 64;
  const Identity exact(config);
  Eigen::VectorXd scratch = values;
  Rng rng(1);
  vectors.EncodeAndAccumulate(exact, 1, scratch, 1.0, rng);
}

// (n = 0: an empty vector's data() may be null, which memcmp must not get.)
bool SameDoubles(const double* a, const double* b, int64_t n) {
  return n == 0 || std::memcmp(a, b, sizeof(double) * static_cast<size_t>(n)) == 0;
}

// Short vectors (every remainder of the groups of four and pairs) and long ones.
std::vector<int64_t> NormDims() {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d <= 21; ++d) dims.push_back(d);
  for (const int64_t d : {1000, 1001, 1002, 1003, 100003}) dims.push_back(d);
  return dims;
}

// Two workers' vectors of dimension d, worker 1's set to wide values.
WorkerVectors WideWorkerVectors(bool single, int64_t d) {
  WorkerVectors vectors(single);
  vectors.Init(2, d);
  SetWorkerVector(vectors, WideValues(d, 5 + d));
  return vectors;
}

TEST(WorkerVectorsTest, AddToSquaredNormIsAddToThenEigensSquaredNormBitForBit) {
  int orders_that_differ = 0;
  for (const bool single : {false, true}) {
    for (const int64_t d : NormDims()) {
      WorkerVectors vectors = WideWorkerVectors(single, d);
      const Eigen::VectorXd grad = WideValues(d, 900 + d);
      for (const bool subtract : {true, false}) {
        for (const int64_t offset : {0, 1}) {  // a 16-byte address or not
          std::vector<double> fused_buffer(static_cast<size_t>(d + 1));
          Eigen::Map<Eigen::VectorXd> fused(fused_buffer.data() + offset, d);
          fused = grad;
          Eigen::VectorXd two_passes = grad;
          const double norm = vectors.AddToSquaredNorm(1, fused, subtract);
          vectors.AddTo(1, two_passes, subtract);
          const double expected = two_passes.squaredNorm();
          EXPECT_EQ(std::memcmp(&norm, &expected, sizeof norm), 0)
              << single << " d=" << d << " " << subtract << " " << offset;
          EXPECT_TRUE(SameDoubles(fused.data(), two_passes.data(), d));
          double in_order = 0;  // a sum in another order: the test can tell them apart
          for (int64_t j = 0; j < d; ++j) in_order += two_passes[j] * two_passes[j];
          orders_that_differ += in_order != expected;
        }
      }
    }
  }
  EXPECT_GT(orders_that_differ, 0);
}

// g - v_w handed over in pieces of every size (cutting the groups of four anywhere) gives the
// values of AddTo(subtract) and Eigen's squaredNorm of them, bit for bit.
TEST(WorkerVectorsTest, SubtractChunksSumTheSquaredNormInEigensOrder) {
  for (const bool single : {false, true}) {
    for (const int64_t d : NormDims()) {
      const WorkerVectors vectors = WideWorkerVectors(single, d);
      const Eigen::VectorXd grad = WideValues(d, 900 + d);
      Eigen::VectorXd expected_values = grad;
      vectors.AddTo(1, expected_values, /*subtract=*/true);
      const double expected = expected_values.squaredNorm();
      for (const int64_t piece : {1, 2, 3, 5, 8, 2048}) {
        PairedSquaredNorm norm(d);
        Eigen::VectorXd out(d);
        for (int64_t at = 0; at < d; at += piece) {
          const int64_t n = std::min(piece, d - at);
          vectors.SubtractChunk(1, at, grad.data() + at, n, out.data() + at, norm);
        }
        const double got = norm.Result();
        EXPECT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
            << single << " d=" << d << " piece " << piece;
        EXPECT_TRUE(SameDoubles(out.data(), expected_values.data(), d));
      }
    }
  }
}

// m <- mu m + g, then the direction m (heavy ball) or g + mu m (Nesterov), by hand: mu = 0.5,
// g = (2, -4) twice: m1 = (2, -4), m2 = (3, -6); Nesterov's second direction is g + 0.5 m2.
TEST(WorkerVectorsTest, MomentumKeepsTheBufferAndGivesTheHeavyBallOrNesterovDirection) {
  for (const bool single : {false, true}) {
    for (const bool nesterov : {false, true}) {
      WorkerVectors m(single);
      m.Init(2, 2);
      Eigen::VectorXd g(2);
      g << 2.0, -4.0;
      m.Momentum(1, g, 0.5, nesterov);
      Eigen::VectorXd first(2), second(2);
      first << (nesterov ? 3.0 : 2.0), (nesterov ? -6.0 : -4.0);
      EXPECT_EQ(g, first) << single << nesterov;
      g << 2.0, -4.0;
      m.Momentum(1, g, 0.5, nesterov);
      second << (nesterov ? 3.5 : 3.0), (nesterov ? -7.0 : -6.0);
      EXPECT_EQ(g, second) << single << nesterov;
      EXPECT_EQ(m.Get(1), Eigen::Vector2d(3.0, -6.0)) << single << nesterov;
      EXPECT_EQ(m.Get(0), Eigen::Vector2d::Zero()) << single << nesterov;
    }
  }
}

TEST(WorkerVectorsTest, ZeroWhereClearsTheSentCoordinatesOnly) {
  WorkerVectors m(false);
  m.Init(1, 3);
  Eigen::VectorXd g(3);
  g << 1.0, 2.0, 3.0;
  m.Momentum(0, g, 0.0, false);
  m.ZeroWhere(0, Eigen::Vector3d(0.0, -7.0, 0.0));
  EXPECT_EQ(m.Get(0), Eigen::Vector3d(1.0, 0.0, 3.0));
}

}  // namespace
}  // namespace commsim
