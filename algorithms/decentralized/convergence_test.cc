// D-PSGD and CHOCO-SGD on a convex problem with a decreasing step: the node average approaches the
// centralised (proximal) optimum and the consensus distance goes to 0.
#include <gtest/gtest.h>

#include <memory>

#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/dpsgd.h"
#include "algorithms/decentralized/test_support.h"

namespace commsim {
namespace {

struct Errors {
  double dist_sq;    // ||mean x - x*||^2
  double consensus;  // (1/n) sum ||x_i - mean x||^2
};

Errors Measure(const NodeRule& rule, const Objective& objective) {
  const int n = rule.num_nodes();
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(objective.dim());
  for (int i = 0; i < n; ++i) mean += rule.x(i);
  mean /= n;
  double consensus = 0;
  for (int i = 0; i < n; ++i) consensus += (rule.x(i) - mean).squaredNorm();
  return {(mean - objective.optimum()->x).squaredNorm(), consensus / n};
}

class ConvergenceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ConvergenceTest, ReachesTheCentralisedOptimumWithADecreasingStep) {
  const int n = 8, dim = 10;
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(n));
  const testing::TopKCompressor top_k(5);
  const testing::ExactCompressor exact;
  const testing::QuadraticObjective objective(n, dim, 21, /*l1=*/0.3);
  NodeRuleContext ctx{.mixing = &w, .objective = &objective, .dim = dim, .prox_l1 = 0.3};
  ctx.step.size = 0.2;
  ctx.step.schedule = "inv_time";
  ctx.step.decay_iterations = 20;
  std::unique_ptr<NodeRule> rule;
  if (GetParam() == "dpsgd") {
    ctx.compressor = &exact;
    rule = std::make_unique<DpsgdRule>(ctx, Eigen::VectorXd::Zero(dim));
  } else {
    ctx.compressor = &top_k;
    rule = std::make_unique<ChocoRule>(ctx, 0.3, Eigen::VectorXd::Zero(dim));
  }
  const Errors start = Measure(*rule, objective);
  int64_t t = 0;
  for (; t < 400; ++t) RunSynchronousRound(*rule, w, t);
  const Errors early = Measure(*rule, objective);
  for (; t < 6400; ++t) RunSynchronousRound(*rule, w, t);
  const Errors late = Measure(*rule, objective);
  // gamma_t fell 16x between the two checkpoints; the O(gamma) neighbourhood shrinks with it.
  EXPECT_LT(late.dist_sq, 1e-3 * start.dist_sq);
  EXPECT_LT(late.dist_sq, early.dist_sq / 20);
  EXPECT_LT(late.consensus, early.consensus / 20);
  EXPECT_LT(late.consensus, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Rules, ConvergenceTest, ::testing::Values("dpsgd", "choco"));

}  // namespace
}  // namespace commsim
