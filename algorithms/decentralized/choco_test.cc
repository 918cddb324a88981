#include "algorithms/decentralized/choco.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "algorithms/decentralized/test_support.h"

namespace commsim {
namespace {

using testing::ExactCompressor;
using testing::QuadraticObjective;
using testing::RandomHalfCompressor;
using testing::TopKCompressor;

Eigen::MatrixXd Stack(const NodeRule& rule, int dim) {
  Eigen::MatrixXd x(dim, rule.num_nodes());
  for (int i = 0; i < rule.num_nodes(); ++i) x.col(i) = rule.x(i);
  return x;
}

bool BitEqual(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

void RandomStart(NodeRule& rule, int dim, uint64_t seed) {
  Rng rng(seed);
  for (int i = 0; i < rule.num_nodes(); ++i) {
    Eigen::VectorXd x(dim);
    for (int j = 0; j < dim; ++j) x[j] = rng.Normal();
    rule.SetX(i, x);
  }
}

TEST(ChocoRuleTest, ExactCompressorAndUnitConsensusStepIsExactGossip) {
  const MixingMatrix w = BuildMixing("auto", testing::RandomNeighbours(9, 0.3, 5));
  const ExactCompressor q;
  NodeRuleContext ctx{.mixing = &w, .compressor = &q, .dim = 6};
  ChocoRule rule(ctx, 1.0, Eigen::VectorXd::Zero(6));
  RandomStart(rule, 6, 11);
  Eigen::MatrixXd gossip = Stack(rule, 6);
  const Eigen::MatrixXd wd = w.Dense();
  for (int t = 0; t < 20; ++t) {
    RunSynchronousRound(rule, w, t);
    gossip = gossip * wd;  // column i <- sum_j w_ji x_j = sum_j w_ij x_j (W symmetric)
    ASSERT_LT((Stack(rule, 6) - gossip).cwiseAbs().maxCoeff(), 1e-13) << "round " << t;
  }
}

TEST(ChocoRuleTest, EveryReplicaEqualsItsOwnersCopyBitForBitEveryRound) {
  const int n = 10, dim = 40;
  const MixingMatrix w = BuildMixing("metropolis", testing::RandomNeighbours(n, 0.3, 3));
  const RandomHalfCompressor q;
  const QuadraticObjective objective(n, dim, 7, 0.01, 0.5);
  NodeRuleContext ctx{.mixing = &w,
                      .compressor = &q,
                      .objective = &objective,
                      .dim = dim,
                      .prox_l1 = 0.01,
                      .seed = 3};
  ctx.step.size = 0.1;
  ChocoRule rule(ctx, 0.3, Eigen::VectorXd::Zero(dim));
  for (int t = 0; t < 30; ++t) {
    RunSynchronousRound(rule, w, t);
    for (int i = 0; i < n; ++i) {
      const std::vector<int>& nb = w.neighbours(i);
      for (size_t k = 0; k < nb.size(); ++k) {
        ASSERT_TRUE(BitEqual(rule.replica(i, static_cast<int>(k)), rule.x_hat(nb[k])))
            << "round " << t << ": node " << i << "'s copy of node " << nb[k];
      }
    }
  }
  EXPECT_GT(rule.x_hat(0).norm(), 0.0);
}

TEST(ChocoRuleTest, DeliveryOrderDoesNotChangeTheResult) {
  const int n = 8, dim = 12;
  const MixingMatrix w = BuildMixing("auto", testing::RandomNeighbours(n, 0.4, 9));
  const TopKCompressor q(3);
  const QuadraticObjective objective(n, dim, 1);
  NodeRuleContext ctx{.mixing = &w, .compressor = &q, .objective = &objective, .dim = dim};
  ChocoRule a(ctx, 0.2, Eigen::VectorXd::Zero(dim));
  ChocoRule b(ctx, 0.2, Eigen::VectorXd::Zero(dim));
  Rng shuffle(4);
  for (int t = 0; t < 15; ++t) {
    RunSynchronousRound(a, w, t);
    // b: nodes step in reverse order, messages delivered in a random order, combines interleaved.
    std::vector<Message> sent(n);
    for (int i = n - 1; i >= 0; --i) sent[i] = b.Step(i, t, 0);
    std::vector<std::pair<int, int>> deliveries;
    for (int i = 0; i < n; ++i) {
      for (size_t k = 0; k < w.neighbours(i).size(); ++k) deliveries.push_back({i, int(k)});
    }
    std::shuffle(deliveries.begin(), deliveries.end(), shuffle);
    std::vector<int> left(n);
    for (int i = 0; i < n; ++i) left[i] = static_cast<int>(w.neighbours(i).size());
    for (auto [i, k] : deliveries) {
      b.Deliver(i, k, sent[w.neighbours(i)[k]]);
      if (--left[i] == 0) b.Combine(i, t);
    }
  }
  for (int i = 0; i < n; ++i) EXPECT_TRUE(BitEqual(a.x(i), b.x(i))) << i;
}

TEST(ChocoRuleTest, GossipPreservesTheAverage) {
  const int n = 8, dim = 30;
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(n));
  const TopKCompressor q(3);
  NodeRuleContext ctx{.mixing = &w, .compressor = &q, .dim = dim};
  ChocoRule rule(ctx, 0.05, Eigen::VectorXd::Zero(dim));
  RandomStart(rule, dim, 2);
  const Eigen::VectorXd mean0 = Stack(rule, dim).rowwise().mean();
  const double spread0 = (Stack(rule, dim).colwise() - mean0).squaredNorm();
  for (int t = 0; t < 50; ++t) RunSynchronousRound(rule, w, t);
  const Eigen::MatrixXd x = Stack(rule, dim);
  EXPECT_LT((x.rowwise().mean() - mean0).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((x.colwise() - mean0).squaredNorm(), 0.5 * spread0);
}

TEST(SoftThresholdTest, ClosedForm) {
  Eigen::VectorXd x(5);
  x << -2.0, -0.5, 0.0, 0.25, 3.0;
  SoftThreshold(0.5, x);
  Eigen::VectorXd expected(5);
  expected << -1.5, 0.0, 0.0, 0.0, 2.5;
  EXPECT_EQ(x, expected);
}

}  // namespace
}  // namespace commsim
