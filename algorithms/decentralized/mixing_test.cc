#include "algorithms/decentralized/mixing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numbers>

#include "algorithms/decentralized/test_support.h"
#include "base/error.h"
#include "base/error_test_util.h"
#include "base/rng.h"

namespace commsim {
namespace {

using testing::RandomNeighbours;
using testing::RingNeighbours;
using testing::TorusNeighbours;

std::vector<std::vector<int>> CompleteNeighbours(int n) {
  std::vector<std::vector<int>> nb(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (j != i) nb[i].push_back(j);
    }
  }
  return nb;
}

std::string ErrorOf(std::string_view kind, const std::vector<std::vector<int>>& nb) {
  return test_errors::ErrorOf([&] { BuildMixing(kind, nb); }, "");
}

TEST(MixingTest, RingOfEightHasTheClosedFormGap) {
  const MixingMatrix w = BuildMixing("ring", RingNeighbours(8));
  EXPECT_DOUBLE_EQ(w.self_weight(0), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(w.weight(0, 0), 1.0 / 3.0);
  const MixingMatrix::Spectrum s = w.ComputeSpectrum();
  // Eigenvalues (1 + 2 cos(2 pi k / n)) / 3.
  const double lambda2 = (1.0 + 2.0 * std::cos(2.0 * std::numbers::pi / 8)) / 3.0;
  EXPECT_NEAR(s.spectral_gap, 0.1953, 1e-4);
  EXPECT_NEAR(s.lambda2, lambda2, 1e-12);
  EXPECT_NEAR(s.lambda_n, -1.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.rho, lambda2, 1e-12);
}

TEST(MixingTest, TorusFourByFourHasGapPointFour) {
  const MixingMatrix w = BuildMixing("torus", TorusNeighbours(4, 4));
  const MixingMatrix::Spectrum s = w.ComputeSpectrum();
  EXPECT_NEAR(s.spectral_gap, 0.4, 1e-12);
  EXPECT_NEAR(s.lambda_n, -0.6, 1e-12);
  EXPECT_NEAR(s.rho, 0.6, 1e-12);
}

TEST(MixingTest, AutoEqualsTheRegularWeightsOnRegularGraphs) {
  EXPECT_EQ(BuildMixing("auto", RingNeighbours(8)).Dense(),
            BuildMixing("ring", RingNeighbours(8)).Dense());
  EXPECT_EQ(BuildMixing("auto", TorusNeighbours(4, 4)).Dense(),
            BuildMixing("torus", TorusNeighbours(4, 4)).Dense());
  const Eigen::MatrixXd u = BuildMixing("uniform", CompleteNeighbours(5)).Dense();
  EXPECT_TRUE(u.isApprox(Eigen::MatrixXd::Constant(5, 5, 0.2), 1e-15));
  EXPECT_EQ(BuildMixing("auto", CompleteNeighbours(5)).Dense(), u);
  // CompleteNeighbours graph: one gossip step is exact averaging, so the gap is 1.
  EXPECT_NEAR(BuildMixing("uniform", CompleteNeighbours(5)).ComputeSpectrum().rho, 0.0, 1e-12);
}

TEST(MixingTest, MetropolisOnARandomGraphIsDoublyStochastic) {
  const std::vector<std::vector<int>> nb = RandomNeighbours(30, 0.15, 42);
  for (std::string_view kind : {"metropolis", "max_degree"}) {
    const MixingMatrix w = BuildMixing(kind, nb);
    const Eigen::MatrixXd d = w.Dense();
    EXPECT_EQ(d, d.transpose()) << kind;
    EXPECT_GE(d.minCoeff(), 0.0) << kind;
    EXPECT_LT((d.rowwise().sum().array() - 1.0).abs().maxCoeff(), 1e-12) << kind;
    EXPECT_LT((d.colwise().sum().array() - 1.0).abs().maxCoeff(), 1e-12) << kind;
    const MixingMatrix::Spectrum s = w.ComputeSpectrum();
    EXPECT_GT(s.spectral_gap, 0.0) << kind;
    EXPECT_LT(s.rho, 1.0) << kind;
  }
  // The Metropolis weight of an edge is 1 / (1 + the larger degree of its ends).
  const MixingMatrix w = BuildMixing("metropolis", nb);
  const int j = w.neighbours(0)[0];
  EXPECT_DOUBLE_EQ(w.weight(0, 0),
                   1.0 / (1.0 + std::max(w.neighbours(0).size(), w.neighbours(j).size())));
  EXPECT_EQ(w.SlotOf(j, 0), 0);
}

TEST(MixingTest, LogicalGraphs) {
  std::vector<std::vector<int>> ring = RingNeighbours(5);
  for (auto& l : ring) std::sort(l.begin(), l.end());
  EXPECT_EQ(LogicalGraph("ring", 5), ring);
  EXPECT_EQ(LogicalGraph("ring", 2), (std::vector<std::vector<int>>{{1}, {0}}));
  std::vector<std::vector<int>> torus = TorusNeighbours(4, 4);
  for (auto& l : torus) std::sort(l.begin(), l.end());
  EXPECT_EQ(LogicalGraph("torus", 16), torus);
  const auto t8 = LogicalGraph("torus", 8);  // 2 x 4: the two vertical links merge
  for (const auto& l : t8) EXPECT_EQ(l.size(), 3u);
  EXPECT_EQ(LogicalGraph("complete", 4)[2], (std::vector<int>{0, 1, 3}));
  EXPECT_NEAR(BuildMixing("auto", LogicalGraph("torus", 16)).ComputeSpectrum().spectral_gap, 0.4,
              1e-12);
}

// The "paw": a triangle 1-2-3 with a pendant node 0 on node 1. Degrees 1, 3, 2, 2; d_max = 3.
const std::vector<std::vector<int>> kPaw = {{1}, {0, 2, 3}, {1, 3}, {1, 2}};

Eigen::MatrixXd Matrix(std::initializer_list<std::initializer_list<double>> rows) {
  Eigen::MatrixXd m(rows.size(), rows.begin()->size());
  int i = 0;
  for (const auto& row : rows) {
    int j = 0;
    for (double v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

// Every edge weighs 1 / (1 + d_max) = 1/4 and a node keeps 1 - deg/4: all dyadic, so exact.
TEST(MixingTest, MaxDegreeWeightsAreOneOverOnePlusTheLargestDegreeExactly) {
  const MixingMatrix w = BuildMixing("max_degree", kPaw);
  EXPECT_EQ(w.Dense(), Matrix({{0.75, 0.25, 0, 0},
                               {0.25, 0.25, 0.25, 0.25},
                               {0, 0.25, 0.5, 0.25},
                               {0, 0.25, 0.25, 0.5}}));
  EXPECT_EQ(w.weight(1, 2), 0.25);
  EXPECT_EQ(w.self_weight(0), 0.75);
}

// Metropolis: edges at 1 leave node 1 (degree 3) weigh 1/4, edge 2-3 (degrees 2, 2) weighs 1/3;
// node 2 keeps 1 - 1/4 - 1/3 = 5/12.
TEST(MixingTest, MetropolisWeightsMatchAHandComputedMatrix) {
  const Eigen::MatrixXd d = BuildMixing("metropolis", kPaw).Dense();
  const Eigen::MatrixXd expected = Matrix({{0.75, 0.25, 0, 0},
                                           {0.25, 0.25, 0.25, 0.25},
                                           {0, 0.25, 5.0 / 12, 1.0 / 3},
                                           {0, 0.25, 1.0 / 3, 5.0 / 12}});
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) EXPECT_DOUBLE_EQ(d(i, j), expected(i, j)) << i << "," << j;
  }
  EXPECT_EQ(BuildMixing("auto", kPaw).Dense(), d);
}

// ring: 1/3 to each neighbour; torus 3 x 3: 1/5; uniform on K4: 1/4. A node keeps 1 minus the
// sum of its edge weights (the contract), which for thirds and fifths is not 1/3 or 1/5 to the bit.
TEST(MixingTest, RingTorusAndUniformWeightsMatchHandComputedMatrices) {
  const double t = 1.0 / 3;
  const double ts = 1.0 - (t + t);
  EXPECT_EQ(BuildMixing("ring", RingNeighbours(4)).Dense(),
            Matrix({{ts, t, 0, t}, {t, ts, t, 0}, {0, t, ts, t}, {t, 0, t, ts}}));
  const Eigen::MatrixXd torus = BuildMixing("torus", TorusNeighbours(3, 3)).Dense();
  const std::vector<std::vector<int>> nb = TorusNeighbours(3, 3);
  for (int i = 0; i < 9; ++i) {
    Eigen::VectorXd row = Eigen::VectorXd::Zero(9);
    for (int j : nb[i]) row(j) = 0.2;
    row(i) = 1.0 - (((0.2 + 0.2) + 0.2) + 0.2);
    EXPECT_EQ(Eigen::VectorXd(torus.row(i).transpose()), row) << "row " << i;
  }
  EXPECT_EQ(BuildMixing("uniform", CompleteNeighbours(4)).Dense(),
            Eigen::MatrixXd::Constant(4, 4, 0.25));
}

TEST(MixingTest, BadGraphsAreClearErrors) {
  EXPECT_NE(ErrorOf("auto", {{1}, {0}, {3}, {2}}).find("disconnected: node(s) 2, 3"),
            std::string::npos);
  EXPECT_NE(ErrorOf("auto", {{1}, {0}, {}}).find("node 2 has no neighbours"), std::string::npos);
  EXPECT_NE(ErrorOf("auto", {{}}).find("at least 2 nodes"), std::string::npos);
  EXPECT_NE(ErrorOf("auto", {{1, 2}, {0}, {1}}).find("not symmetric"), std::string::npos);
  EXPECT_NE(ErrorOf("auto", {{0, 1}, {0}}).find("itself"), std::string::npos);
  EXPECT_NE(ErrorOf("auto", {{1, 5}, {0}}).find("neighbour 5"), std::string::npos);
  EXPECT_NE(ErrorOf("ring", TorusNeighbours(3, 3)).find("needs every node to have 2 neighbours"),
            std::string::npos);
  EXPECT_NE(ErrorOf("torus", RingNeighbours(6)).find("4 neighbours"), std::string::npos);
  EXPECT_NE(ErrorOf("uniform", RingNeighbours(6)).find("5 neighbours"), std::string::npos);
}

}  // namespace
}  // namespace commsim
