// SDM-DSGD on a convex problem: the node average reaches a neighbourhood of x* whose size grows
// with the Gaussian mask, and every message keeps the sparsifier's fraction of the coordinates.
#include "algorithms/decentralized/sdm_dsgd.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <memory>

#include "algorithms/decentralized/test_support.h"
#include "compression/codec/link_compressor.h"
#include "compression/compressors/rand_k.h"
#include "compression/registry.h"

namespace commsim {
namespace {

constexpr int kSdmNodes = 8;
constexpr int kSdmDim = 50;

struct SdmResult {
  double dist_sq = 0, consensus = 0;
  double fixed_point_gap = 0;  // max_i ||x_i - x_i^fp||
};

// Without noise the rule's fixed point is D-PSGD's on the public copies: x = W x - a (x - c) node
// by node, i.e. x = a (I - W + a I)^-1 C with C the nodes' centres (c_w = -grad f_w(0)).
Eigen::MatrixXd SdmFixedPoint(const MixingMatrix& w, const Objective& f, double a) {
  Eigen::MatrixXd c(kSdmNodes, kSdmDim);
  Rng unused(1);
  Eigen::VectorXd g(kSdmDim);
  for (int i = 0; i < kSdmNodes; ++i) {
    f.Gradient(i, Eigen::VectorXd::Zero(kSdmDim), 0, unused, g);
    c.row(i) = -g.transpose();
  }
  const Eigen::MatrixXd m = Eigen::MatrixXd::Identity(kSdmNodes, kSdmNodes) * (1.0 + a) - w.Dense();
  return a * m.inverse() * c;
}

SdmResult RunSdm(double sigma) {
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(kSdmNodes));
  const testing::QuadraticObjective objective(kSdmNodes, kSdmDim, 4);
  SdmDsgdConfig config;  // rand_k, 10%: k = 5 of 50
  config.sigma = sigma;
  config.clip = 0.0;  // the local gradients at the fixed point exceed any small G (a bias)
  const std::unique_ptr<Compressor> sparsifier = MakeLinkCompressor(config.compressor);
  NodeRuleContext ctx{
      .mixing = &w, .compressor = sparsifier.get(), .objective = &objective, .dim = kSdmDim};
  ctx.step.size = 0.1;
  SdmDsgdRule rule(config, ctx, Eigen::VectorXd::Zero(kSdmDim));
  SdmResult out;
  for (int64_t t = 0; t < 4000; ++t) RunSynchronousRound(rule, w, t);
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(kSdmDim);
  for (int i = 0; i < kSdmNodes; ++i) mean += rule.x(i);
  mean /= kSdmNodes;
  for (int i = 0; i < kSdmNodes; ++i) out.consensus += (rule.x(i) - mean).squaredNorm();
  out.consensus /= kSdmNodes;
  out.dist_sq = (mean - objective.optimum()->x).squaredNorm();
  const Eigen::MatrixXd fp = SdmFixedPoint(w, objective, ctx.step.size);
  for (int i = 0; i < kSdmNodes; ++i) {
    out.fixed_point_gap = std::max(out.fixed_point_gap, (rule.x(i) - fp.row(i).transpose()).norm());
  }
  return out;
}

TEST(SdmDsgdTest, ReachesANeighbourhoodOfTheOptimumThatGrowsWithTheMask) {
  const testing::QuadraticObjective objective(kSdmNodes, kSdmDim, 4);
  const double start = objective.optimum()->x.squaredNorm();  // x0 = 0
  const SdmResult clean = RunSdm(0.0), masked = RunSdm(1e-3), loud = RunSdm(1e-1);
  std::printf("sdm: ||x* ||^2 %.3g; dist^2 sigma 0: %.3g, 1e-3: %.3g, 1e-1: %.3g\n", start,
              clean.dist_sq, masked.dist_sq, loud.dist_sq);
  // Without noise the nodes reach D-PSGD's fixed point, whose average on these quadratics (unit
  // curvature) is x* exactly.
  EXPECT_LT(clean.fixed_point_gap, 1e-8);
  EXPECT_LT(clean.dist_sq, 1e-12 * start);
  // The stated neighbourhood: dist^2 <= 10 sigma^2 d / n (the mask's variance reaching the
  // average of n nodes, with margin for its accumulation in the public copies).
  EXPECT_LT(masked.dist_sq, 10 * 1e-6 * kSdmDim / kSdmNodes);
  EXPECT_LT(loud.dist_sq, 10 * 1e-2 * kSdmDim / kSdmNodes);
  EXPECT_GT(loud.dist_sq, masked.dist_sq);
}

TEST(SdmDsgdTest, MessagesKeepTheSparsityFraction) {
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(kSdmNodes));
  const testing::QuadraticObjective objective(kSdmNodes, kSdmDim, 4);
  for (const double fraction : {0.1, 0.3}) {
    SdmDsgdConfig config;
    static_cast<RandKConfig&>(*config.compressor.config).fraction = fraction;
    const std::unique_ptr<Compressor> sparsifier = MakeLinkCompressor(config.compressor);
    NodeRuleContext ctx{
        .mixing = &w, .compressor = sparsifier.get(), .objective = &objective, .dim = kSdmDim};
    SdmDsgdRule rule(config, ctx, Eigen::VectorXd::Zero(kSdmDim));
    for (int64_t t = 0; t < 5; ++t) {
      for (int i = 0; i < kSdmNodes; ++i) {
        const Outbox out = rule.StepIn(i, t, 0, 0);
        ASSERT_TRUE(out.all.has_value());
        EXPECT_EQ(out.all->nonzeros, std::lround(fraction * kSdmDim));
        EXPECT_EQ(out.all->elements, kSdmDim);
        EXPECT_EQ(out.all->payload_bits, 64 + 32 * std::lround(fraction * kSdmDim));
      }
    }
  }
}

}  // namespace
}  // namespace commsim
