// Codec time in the collective family, against a closed form written out by hand: with a free
// network (0-bit messages, 0 latency) a round is compute + per all-gather phase (the worker's
// encode + n decodes, one after the other on its lane); all-reduce steps cost no codec time.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <vector>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/decentralized/test_support.h"
#include "models/compute_time.h"
#include "sim/network_test_util.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using testing::QuadraticObjective;

constexpr int64_t kUs = 1'000'000;  // picoseconds per microsecond

using net_test::Seconds;

// Two all-gather phases of 0-bit messages stamped as compressor "toy" (1000 elements, 10 coded
// values); the model never moves.
class ToyGatherRule final : public CollectiveRule {
 public:
  void Init(int, const Eigen::Ref<const Eigen::VectorXd>& x0, const Objective&, const LayerProfile*,
            uint64_t) override {
    x_ = x0;
  }
  std::vector<CollectivePhase> Phases(int64_t, const LayerProfile*) const override {
    return {{PhaseKind::kAllGather, 0}, {PhaseKind::kAllGather, 0}};
  }
  Message Encode(int, int, const Eigen::Ref<const Eigen::VectorXd>&, double, Rng&) override {
    Message m;
    m.codec = "toy";
    m.elements = 1000;
    m.nonzeros = 10;
    return m;
  }
  void AllGathered(int, int, std::span<const SharedMessage> messages) override {
    gathered_ += static_cast<int>(messages.size());
  }
  void EndRound(double) override {}
  const Eigen::VectorXd& Model() const override { return x_; }
  int gathered() const { return gathered_; }

 private:
  Eigen::VectorXd x_;
  int gathered_ = 0;
};

TEST(CollectiveCodecTest, AllGatherRoundIsComputePlusEncodeAndNDecodesPerPhase) {
  const int n = 3;
  const QuadraticObjective objective(n, 3, 1);
  StarConfig sc;
  sc.workers.worker_latency_s = 0;
  sc.server_latency_s = 0;
  const Topology topology = StarBuilder(sc).Build(n);
  ComputeTimeConfig cc;
  cc.seconds = 1e-3;
  const ComputeTimeModel compute(cc, objective.flops_per_sample(), n, 1);
  auto profile = std::make_shared<CodecProfile>();
  profile->device = "test";
  // encode = 1 us + 1 ns/element + 0.1 us/coded value = 3 us; decode = 2 us + 3 ns/element = 5 us.
  profile->compressors["toy"] =
      CodecCoefficients{.encode = {.c0_s = 1e-6, .elem_s = 1e-9, .nnz_s = 1e-7},
                        .decode = {.c0_s = 2e-6, .elem_s = 3e-9}};
  RunSetup setup;
  setup.objective = &objective;
  setup.topology = &topology;
  setup.compute = &compute;
  setup.iterations = 2;
  setup.codec = CodecSetup{.mode = CodecMode::kModel, .profile = profile};
  ToyGatherRule rule;
  std::vector<IterationRecord> records;
  RunSummary summary;
  RunCollective(setup, CollectiveOptions{}, rule, &records, &summary);
  const int64_t phase = 3 * kUs + n * 5 * kUs;
  const int64_t round = 1000 * kUs + 2 * phase;
  ASSERT_EQ(records.size(), 3u) << summary.status << " " << summary.message;
  for (size_t k = 1; k < records.size(); ++k) {
    EXPECT_EQ(records[k].iter_time_s, Seconds(round)) << k;
    EXPECT_EQ(records[k].codec_time_s, Seconds(2 * phase)) << k;
  }
  EXPECT_EQ(rule.gathered(), 2 * 2 * n * n);  // 2 rounds x 2 phases x n workers x n messages
  EXPECT_EQ(summary.codec, "model test");
}

}  // namespace
}  // namespace commsim
