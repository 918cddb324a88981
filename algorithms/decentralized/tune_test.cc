#include "algorithms/decentralized/tune.h"

#include <gtest/gtest.h>

#include <cmath>

#include "algorithms/decentralized/test_support.h"

namespace commsim {
namespace {

TEST(TuneConsensusTest, ExactGossipPrefersTheFullStepAndMatchesRhoSquared) {
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(8));
  const testing::ExactCompressor exact;
  const ConsensusTuning t =
      TuneConsensus(w, exact, {.dim = 50, .rounds = 30, .grid = {1.0, 0.5, 0.1}});
  EXPECT_EQ(t.best_gamma(), 1.0);
  // Exact gossip contracts the spread by at most rho^2 per round.
  const double rho = w.ComputeSpectrum().rho;
  for (size_t r = 1; r < t.curves[0].size(); ++r) {
    EXPECT_LE(t.curves[0][r], t.curves[0][r - 1] * rho * rho * (1 + 1e-9)) << r;
  }
  EXPECT_EQ(t.bits[0], 30 * 8 * 64 * 50);
}

TEST(TuneConsensusTest, TopKGossipFallsLinearlyAtTheTunedStep) {
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(8));
  const testing::TopKCompressor top_k(10);  // 10% of d = 100
  const ConsensusTuning t = TuneConsensus(w, top_k, {.dim = 100, .rounds = 300, .seed = 5});
  const double gamma = t.best_gamma();
  EXPECT_LT(gamma, 1.0);  // compressed gossip needs a damped consensus step
  const std::vector<double>& e = t.curves[t.best];
  ASSERT_EQ(e.size(), 301u);
  // Linear (geometric) decay: the log-error drops by similar amounts over equal spans.
  const double d1 = std::log(e[100] / e[200]);
  const double d2 = std::log(e[200] / e[300]);
  EXPECT_GT(d1, 1.0);
  EXPECT_GT(d2, 1.0);
  EXPECT_NEAR(d1 / d2, 1.0, 0.35);
  EXPECT_LT(e[300], 1e-4);
  // The full step diverges or stalls with top_k.
  EXPECT_GT(t.final_error[0], 100 * e[300]);
}

}  // namespace
}  // namespace commsim
