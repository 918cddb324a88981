// synthetic_quadratic's compact curvatures: every lambda_j rebuilt from the one-byte fixes equals
// the written-out formula lambda_min (lambda_max / lambda_min)^(j / (d - 1)) bit for bit (also on
// the fallback for condition numbers whose fixes do not fit in a byte), and the gradient and the
// loss equal their definitions evaluated on that formula, bit for bit.
#include "models/synthetic_quadratic.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

double LambdaFormula(const SyntheticQuadraticConfig& c, int64_t j) {
  if (c.dim == 1) return c.lambda_min;
  return c.lambda_min * std::pow(c.lambda_max / c.lambda_min,
                                 static_cast<double>(j) / static_cast<double>(c.dim - 1));
}

SyntheticQuadraticConfig QuadraticOf(int64_t dim, double lambda_min, double lambda_max) {
  SyntheticQuadraticConfig c;
  c.dim = dim;
  c.lambda_min = lambda_min;
  c.lambda_max = lambda_max;
  c.heterogeneity = 1.5;
  return c;
}

// Dimensions around the 256-coordinate blocks and the gradient chunks, one coordinate, and
// condition numbers from 1 (all equal) to 1e300 (fixes beyond a byte).
TEST(SyntheticQuadraticTest, CurvaturesEqualTheFormulaBitForBit) {
  constexpr int64_t kC = SyntheticQuadratic::kChunk;
  for (const int64_t dim : {int64_t{1}, int64_t{2}, int64_t{255}, int64_t{256}, int64_t{257},
                            kC - 1, kC, kC + 1, 2 * kC + 953}) {
    for (const auto& [lo, hi] : {std::pair{1.0, 100.0}, std::pair{0.5, 0.5}, std::pair{1e-3, 7.0},
                                 std::pair{1e-150, 1e150}}) {
      const SyntheticQuadraticConfig c = QuadraticOf(dim, lo, hi);
      const SyntheticQuadratic f(c, 3, 5);
      const Eigen::VectorXd lambda = f.lambda();
      ASSERT_EQ(lambda.size(), dim);
      for (int64_t j = 0; j < dim; ++j) {
        ASSERT_EQ(std::bit_cast<uint64_t>(lambda[j]), std::bit_cast<uint64_t>(LambdaFormula(c, j)))
            << "d " << dim << ", lambda " << lo << ".." << hi << ", j " << j;
      }
    }
  }
}

// g_j = lambda_j ((x_j - c_j) - h r_{(j + o_w) mod d}) with center(w, j) = c_j + h r_..., and
// the loss 1/2 sum_j lambda_j (x_j - x*_j)^2 + F(x*) summed as Eigen sums a stored vector.
TEST(SyntheticQuadraticTest, GradientAndLossMatchTheDefinitionOnTheFormula) {
  for (const auto& [lo, hi] : {std::pair{1.0, 100.0}, std::pair{1e-150, 1e150}}) {
    const SyntheticQuadraticConfig c = QuadraticOf(2 * SyntheticQuadratic::kChunk + 953, lo, hi);
    const int workers = 4;
    const SyntheticQuadratic f(c, workers, 9);
    Eigen::VectorXd lambda(c.dim), x(c.dim), g(c.dim), expected(c.dim);
    Rng rng(1, 0, "x");
    for (int64_t j = 0; j < c.dim; ++j) {
      lambda[j] = LambdaFormula(c, j);
      x[j] = rng.Normal();
    }
    for (int w = 0; w < workers; ++w) {
      const double loss = f.Gradient(w, x, c.samples_per_worker, rng, g);
      double expected_loss = 0.0;
      for (int64_t j = 0; j < c.dim; ++j) {
        const double diff = x[j] - f.center(w, j);
        expected[j] = lambda[j] * diff;
        expected_loss += lambda[j] * diff * diff;
      }
      // center(w, j) adds c_j and h r in another order, so compare to a rounding.
      EXPECT_LE((g - expected).lpNorm<Eigen::Infinity>(), 1e-9 * expected.lpNorm<Eigen::Infinity>())
          << "worker " << w;
      EXPECT_NEAR(loss, 0.5 * expected_loss, 1e-9 * expected_loss) << "worker " << w;
    }
    const Eigen::VectorXd& x_star = f.optimum()->x;
    const double stored =
        0.5 * (lambda.array() * (x - x_star).array().square()).sum() + f.optimum()->loss;
    EXPECT_EQ(std::bit_cast<uint64_t>(f.Loss(x)), std::bit_cast<uint64_t>(stored));
  }
}

// StreamFiniteGradients hands each stream FiniteGradient's values bit for bit, in index order, in
// chunks that cover [0, d) once, with the same finiteness answer and the same noise draws (each
// Rng ends in the same state), on dimensions around the gradient chunks; three workers streamed
// together, two at one point (one of them not finite) and one at another.
TEST(SyntheticQuadraticTest, StreamedGradientsAreTheStoredGradientsInOrder) {
  constexpr int64_t kC = SyntheticQuadratic::kChunk;
  for (const int64_t dim : {int64_t{1}, kC - 1, kC, kC + 1, 2 * kC + 953}) {
    for (const double noise : {0.0, 0.7}) {
      SyntheticQuadraticConfig c = QuadraticOf(dim, 1.0, 100.0);
      c.noise = noise;
      const SyntheticQuadratic f(c, 3, 5);
      Rng xs(2, 0, "x");
      Eigen::VectorXd shared_x(dim), own_x(dim);
      for (int64_t j = 0; j < dim; ++j) shared_x[j] = xs.Normal();
      for (int64_t j = 0; j < dim; ++j) own_x[j] = xs.Normal();
      Eigen::VectorXd bad_x = shared_x;
      bad_x[dim / 2] = INFINITY;
      const Eigen::VectorXd* points[] = {&shared_x, &bad_x, &own_x};
      const int workers[] = {2, 0, 1};
      std::vector<Rng> stored_rngs, streamed_rngs;
      for (int i = 0; i < 3; ++i) {
        stored_rngs.emplace_back(4, i, "batch");
        streamed_rngs.emplace_back(4, i, "batch");
      }
      std::vector<std::vector<double>> streamed(3);
      std::vector<Objective::GradientStream> streams;
      for (size_t i = 0; i < 3; ++i) {
        streams.push_back({.worker = workers[i],
                           .x = points[i],
                           .batch = 10,
                           .rng = &streamed_rngs[i],
                           .sink = [&streamed, i](const double* values, int64_t n) {
                             EXPECT_GT(n, 0);
                             streamed[i].insert(streamed[i].end(), values, values + n);
                           }});
      }
      ASSERT_TRUE(f.StreamFiniteGradients(streams));
      for (size_t i = 0; i < 3; ++i) {
        Eigen::VectorXd stored(dim);
        EXPECT_EQ(f.FiniteGradient(workers[i], *points[i], 10, stored_rngs[i], stored),
                  streams[i].finite);
        EXPECT_EQ(streams[i].finite, i != 1) << "stream " << i;
        ASSERT_EQ(static_cast<int64_t>(streamed[i].size()), dim);
        for (int64_t j = 0; j < dim; ++j) {
          ASSERT_EQ(std::bit_cast<uint64_t>(streamed[i][static_cast<size_t>(j)]),
                    std::bit_cast<uint64_t>(stored[j]))
              << "d " << dim << ", noise " << noise << ", stream " << i << ", j " << j;
        }
        EXPECT_EQ(stored_rngs[i].NextU64(), streamed_rngs[i].NextU64()) << "noise draws differ";
      }
    }
  }
}

// A stream whose point is given in fp32 (GradientStream::x32) hands over FiniteGradient's values
// at the double point double(x32[j]) bit for bit (the same noise draws, the same finiteness),
// mixed in one call with a stream at a double point; without noise its values are also near the
// definition lambda_j (x_j - c_wj) written out with lambda() and center().
TEST(SyntheticQuadraticTest, Fp32PointStreamsTheGradientAtItsWidenedValues) {
  constexpr int64_t kC = SyntheticQuadratic::kChunk;
  for (const int64_t dim : {int64_t{1}, int64_t{7}, kC - 1, kC, kC + 1, 2 * kC + 953}) {
    for (const double noise : {0.0, 0.7}) {
      SyntheticQuadraticConfig c = QuadraticOf(dim, 1.0, 100.0);
      c.noise = noise;
      const SyntheticQuadratic f(c, 2, 9);
      Rng xs(3, 0, "x");
      std::vector<float> x32(static_cast<size_t>(dim));
      Eigen::VectorXd widened(dim), other(dim);
      for (int64_t j = 0; j < dim; ++j) {
        x32[static_cast<size_t>(j)] = static_cast<float>(3.0 * xs.Normal());
        widened[j] = static_cast<double>(x32[static_cast<size_t>(j)]);
        other[j] = xs.Normal();
      }
      std::vector<Rng> stored_rngs{Rng(5, 1, "batch"), Rng(5, 0, "batch")};
      std::vector<Rng> streamed_rngs = stored_rngs;
      std::vector<std::vector<double>> streamed(2);
      std::vector<Objective::GradientStream> streams(2);
      for (size_t i = 0; i < 2; ++i) {
        streams[i] = {.worker = 1 - static_cast<int>(i),
                      .x = i == 0 ? nullptr : &other,
                      .x32 = i == 0 ? x32.data() : nullptr,
                      .batch = 10,
                      .rng = &streamed_rngs[i],
                      .sink = [&streamed, i](const double* values, int64_t n) {
                        streamed[i].insert(streamed[i].end(), values, values + n);
                      }};
      }
      ASSERT_TRUE(f.StreamFiniteGradients(streams));
      const Eigen::VectorXd lambda = f.lambda();
      for (size_t i = 0; i < 2; ++i) {
        const int w = 1 - static_cast<int>(i);
        Eigen::VectorXd stored(dim);
        EXPECT_TRUE(f.FiniteGradient(w, i == 0 ? widened : other, 10, stored_rngs[i], stored));
        EXPECT_TRUE(streams[i].finite);
        ASSERT_EQ(static_cast<int64_t>(streamed[i].size()), dim);
        for (int64_t j = 0; j < dim; ++j) {
          const double v = streamed[i][static_cast<size_t>(j)];
          ASSERT_EQ(std::bit_cast<uint64_t>(v), std::bit_cast<uint64_t>(stored[j]))
              << "d " << dim << ", noise " << noise << ", stream " << i << ", j " << j;
          if (noise > 0.0 || i != 0) continue;
          const double formula = lambda[j] * (widened[j] - f.center(w, j));
          ASSERT_NEAR(v, formula, 1e-9 * (1.0 + std::abs(formula))) << "j " << j;
        }
        EXPECT_EQ(stored_rngs[i].NextU64(), streamed_rngs[i].NextU64()) << "noise draws differ";
      }
    }
  }
}

// With sinks that take chunks in any order (sink_at), the segment order hands every index exactly
// once with FiniteGradient's value bit for bit, whatever the dimension (not a multiple of n,
// segments longer and shorter than a chunk, the shared vector's wrap-around) and whichever subset
// of workers streams together; with noise the values are drawn in index order, so the in-order
// sink is used.
struct Recorded {
  std::vector<double> values;
  std::vector<int> times;  // how often each index was handed over
  int in_order_calls = 0;
};

TEST(SyntheticQuadraticStreamsTest, AnyOrderSinksGetEveryIndexOnceWithTheStoredValues) {
  constexpr int64_t kC = SyntheticQuadratic::kChunk;
  for (const int workers : {3, 8}) {
    for (const int64_t dim : {int64_t{1}, int64_t{7}, kC + 1, 3 * kC + 953, 8 * kC + 5}) {
      const SyntheticQuadratic f(QuadraticOf(dim, 1.0, 100.0), workers, 5);
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
  SyntheticQuadraticConfig c = QuadraticOf(dim, 1.0, 100.0);
  c.noise = 0.5;
  const SyntheticQuadratic f(c, 4, 5);
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
