// PowerSGD as in the paper: the (output channels x rest) reshape of each weight with biases and
// norms uncompressed, and its matrix products and orthogonalisation charged on the codec lane,
// against the shapes and FLOP counts written out by hand.
#include <gtest/gtest.h>

#include <memory>

#include "algorithms/collective/powersgd.h"
#include "algorithms/collective/powersgd_layout.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "algorithms/run_test_util.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"
#include "sim/network_test_util.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

// A conv of 4 output channels over 2 x 3 x 3 inputs with a bias, then a norm of 4 channels.
LayerProfile ConvAndNorm() {
  return LayerProfile{.name = "t",
                      .layers = {Layer{.name = "conv",
                                       .params = 76,
                                       .forward_flops_per_sample = 0,
                                       .backward_flops_per_sample = 0,
                                       .tensors = {72, 4},
                                       .out = 4},
                                 Layer{.name = "norm", .params = 8, .tensors = {4, 4}}}};
}

TEST(PowerSgdPaperTest, WeightsAreOutByRestAndEveryOtherTensorAVector) {
  const LayerProfile layers = ConvAndNorm();
  const PowerSgdLayout paper = MakePowerSgdLayout(84, 1, &layers, PowerSgdReshape::kOutByRest);
  ASSERT_EQ(paper.blocks.size(), 4u);
  EXPECT_TRUE(paper.blocks[0].matrix);
  EXPECT_EQ(paper.blocks[0].rows, 4);
  EXPECT_EQ(paper.blocks[0].cols, 18);
  for (size_t b = 1; b < 4; ++b) EXPECT_FALSE(paper.blocks[b].matrix) << b;
  EXPECT_EQ(paper.p_length, 4 + 4 + 4 + 4);  // the 4 x 1 factor, then the three vectors
  EXPECT_EQ(paper.q_length, 18);
  // commsim's own reshape: one near-square block per layer, 76 -> 9 x 9 (k = ceil(sqrt 76),
  // zero-padded) and the norm's 8 -> 3 x 3 (1 (3 + 3) < 8).
  const PowerSgdLayout square = MakePowerSgdLayout(84, 1, &layers);
  ASSERT_EQ(square.blocks.size(), 2u);
  EXPECT_EQ(square.blocks[0].rows, 9);
  EXPECT_EQ(square.blocks[0].cols, 9);
  EXPECT_EQ(square.blocks[1].rows, 3);
  EXPECT_TRUE(square.blocks[1].matrix);
}

// m = 4, k = 18, r = 1: before P 4*18 + 2*4*18 = 216, before Q 2*4 + 2*4*18 = 152, after Q
// 2*4*18 + 2*4*18 = 288 FLOPs, at 1 GFLOP/s on the codec lane of each worker; the P and Q
// all-reduces (16 and 18 values) on a ring of 2 in between.
TEST(PowerSgdPaperTest, MatrixWorkIsChargedAtTheComputeRateAroundBothAllReduces) {
  const LayerProfile layers = ConvAndNorm();
  EXPECT_EQ(PowerSgdFlops(MakePowerSgdLayout(84, 1, &layers, PowerSgdReshape::kOutByRest), 1),
            (std::array<double, 3>{216, 152, 288}));
  const int n = 2;
  const Topology topology = testing::LinkedRing(n, 1e9, 3e-6);
  testing::FixedComputeRun run(topology, n, 84, 1e-3, &layers, false, 1, 1e9);
  run.setup.iterations = 2;
  auto profile = std::make_shared<CodecProfile>();
  profile->device = "test";
  run.setup.codec = CodecSetup{.mode = CodecMode::kModel, .profile = profile};
  PowerSgdConfig c;
  c.rank = 1;
  c.reshape = "out_by_rest";
  const auto algorithm = MakeAlgorithm("powersgd", c);
  const auto ring = [&](int64_t values) {
    return 2 * (n - 1) * (3'000'000 + 32 * values / n * 1000);
  };
  const int64_t ns = 1000;  // picoseconds
  const int64_t charged = 1'000'000'000 + 216 * ns + ring(16) + 152 * ns + ring(18) + 288 * ns;
  const testing::RunOutput out = run.Run(*algorithm);
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  EXPECT_EQ(out.records[1].iter_time_s, net_test::Seconds(charged));
  // A framework's cost per operator call: one matrix, so one call before P, one before Q, one
  // after.
  run.setup.framework.name = "test";
  run.setup.framework.codec_call = SimTime::FromPs(1'000'000);
  EXPECT_EQ(run.Run(*algorithm).records[1].iter_time_s, net_test::Seconds(charged + 3'000'000));
  run.setup.framework = FrameworkSetup{};
  // Without codec time (mode none) the same run has no matrix work on its timeline.
  run.setup.codec = CodecSetup{};
  EXPECT_EQ(run.Run(*algorithm).records[1].iter_time_s,
            net_test::Seconds(1'000'000'000 + ring(16) + ring(18)));
}

}  // namespace
}  // namespace commsim
