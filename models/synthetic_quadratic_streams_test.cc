// SyntheticQuadratic::StreamFiniteGradients with sinks that take chunks in any order (sink_at):
// the segment order must hand every index exactly once with FiniteGradient's value bit for bit,
// whatever the dimension (not a multiple of n, segments longer and shorter than a chunk, the
// shared vector's wrap-around) and whichever subset of workers streams together; with noise the
// values are drawn in index order, so the in-order sink is used.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "models/synthetic_quadratic.h"
#include "sim/rng.h"

namespace commsim {
namespace {

SyntheticQuadraticConfig Config(int64_t dim, double noise) {
  SyntheticQuadraticConfig c;
  c.dim = dim;
  c.lambda_min = 1.0;
  c.lambda_max = 100.0;
  c.heterogeneity = 1.5;
  c.noise = noise;
  return c;
}

struct Recorded {
  std::vector<double> values;
  std::vector<int> times;  // how often each index was handed over
  int in_order_calls = 0;
};

TEST(SyntheticQuadraticStreamsTest, AnyOrderSinksGetEveryIndexOnceWithTheStoredValues) {
  constexpr int64_t kC = SyntheticQuadratic::kChunk;
  for (const int workers : {3, 8}) {
    for (const int64_t dim : {int64_t{1}, int64_t{7}, kC + 1, 3 * kC + 953, 8 * kC + 5}) {
      const SyntheticQuadratic f(Config(dim, 0.0), workers, 5);
      Rng xs(2, 0, "x");
      std::vector<float> x32(static_cast<size_t>(dim));
      Eigen::VectorXd widened(dim), bad(dim);
      for (int64_t j = 0; j < dim; ++j) {
        x32[static_cast<size_t>(j)] = static_cast<float>(xs.Normal());
        widened[j] = static_cast<double>(x32[static_cast<size_t>(j)]);
      }
      bad = widened;
      bad[dim - 1] = NAN;
      // Workers 0, n-1 and 1 at the fp32 point, worker 2 % n at a double point with a NaN.
      const std::vector<int> ids = {0, workers - 1, 1, 2 % workers};
      std::vector<Recorded> got(ids.size());
      std::vector<Rng> rngs;
      for (size_t i = 0; i < ids.size(); ++i) rngs.emplace_back(4, ids[i], "batch");
      std::vector<Objective::GradientStream> streams(ids.size());
      for (size_t i = 0; i < ids.size(); ++i) {
        Recorded& r = got[i];
        r.values.assign(static_cast<size_t>(dim), 0.0);
        r.times.assign(static_cast<size_t>(dim), 0);
        streams[i] = {.worker = ids[i],
                      .x = i == 3 ? &bad : nullptr,
                      .x32 = i == 3 ? nullptr : x32.data(),
                      .batch = 10,
                      .rng = &rngs[i],
                      .sink = [&r](const double*, int64_t) { ++r.in_order_calls; },
                      .sink_at =
                          [&r, dim](int64_t at, const double* values, int64_t n) {
                            ASSERT_TRUE(at >= 0 && n > 0 && at + n <= dim) << at << " " << n;
                            for (int64_t k = 0; k < n; ++k) {
                              r.values[static_cast<size_t>(at + k)] = values[k];
                              ++r.times[static_cast<size_t>(at + k)];
                            }
                          }};
      }
      ASSERT_TRUE(f.StreamFiniteGradients(streams));
      for (size_t i = 0; i < ids.size(); ++i) {
        Eigen::VectorXd stored(dim);
        Rng rng(4, ids[i], "batch");
        const bool finite = f.FiniteGradient(ids[i], i == 3 ? bad : widened, 10, rng, stored);
        EXPECT_EQ(streams[i].finite, finite);
        EXPECT_EQ(finite, i != 3);
        EXPECT_EQ(got[i].in_order_calls, 0);
        for (int64_t j = 0; j < dim; ++j) {
          ASSERT_EQ(got[i].times[static_cast<size_t>(j)], 1)
              << "n " << workers << ", d " << dim << ", stream " << i << ", j " << j;
          if (i == 3 && j == dim - 1) continue;  // NaN
          ASSERT_EQ(std::bit_cast<uint64_t>(got[i].values[static_cast<size_t>(j)]),
                    std::bit_cast<uint64_t>(stored[j]))
              << "n " << workers << ", d " << dim << ", stream " << i << ", j " << j;
        }
      }
    }
  }
}

TEST(SyntheticQuadraticStreamsTest, NoisyStreamsGoInIndexOrderEvenWithAnAnyOrderSink) {
  const int64_t dim = 3 * SyntheticQuadratic::kChunk + 11;
  const SyntheticQuadratic f(Config(dim, 0.5), 4, 5);
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(dim, -1.0, 1.0);
  Rng rng(4, 1, "batch");
  std::vector<double> in_order;
  int any_order_calls = 0;
  std::vector<Objective::GradientStream> streams(1);
  streams[0] = {
      .worker = 1,
      .x = &x,
      .batch = 10,
      .rng = &rng,
      .sink = [&](const double* v, int64_t n) { in_order.insert(in_order.end(), v, v + n); },
      .sink_at = [&](int64_t, const double*, int64_t) { ++any_order_calls; }};
  ASSERT_TRUE(f.StreamFiniteGradients(streams));
  EXPECT_EQ(any_order_calls, 0);
  Eigen::VectorXd stored(dim);
  Rng stored_rng(4, 1, "batch");
  ASSERT_TRUE(f.FiniteGradient(1, x, 10, stored_rng, stored));
  ASSERT_EQ(static_cast<int64_t>(in_order.size()), dim);
  for (int64_t j = 0; j < dim; ++j) {
    ASSERT_EQ(std::bit_cast<uint64_t>(in_order[static_cast<size_t>(j)]),
              std::bit_cast<uint64_t>(stored[j]))
        << j;
  }
}

}  // namespace
}  // namespace commsim
