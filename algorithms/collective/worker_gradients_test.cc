// The collective driver on several threads (WorkerGradients): every collective algorithm gives
// the same records (losses, per-worker memories, times, bits) and summary with 3 and 8 threads as
// with 1, on noisy mini-batch gradients while the workers' events run in another order than their
// numbers (jitter, a straggler), also bucket by bucket (layer-wise overlap); the 1-thread run is
// itself pinned to the shipped scenarios' golden outputs. A non-finite gradient stops the run at
// that worker's event with the same message and record on any thread count.
#include "algorithms/collective/worker_gradients.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "algorithms/collective/allgather_compressed.h"
#include "algorithms/collective/allreduce_sgd.h"
#include "algorithms/collective/powersgd.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "algorithms/test_objective.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

constexpr int kGradWorkers = 5;  // not a multiple of the thread counts
constexpr int kGradDim = 60;

struct GradCase {
  std::string name;
  std::unique_ptr<Algorithm> algorithm;
  bool layerwise = false;
};

// Every registered collective algorithm with its default config, then variants worth a look.
std::vector<GradCase> GradCases() {
  std::vector<GradCase> cases;
  for (const Registry<Algorithm>::Entry& entry : AlgorithmRegistry().entries()) {
    const std::unique_ptr<Config> config = entry.make_config();
    std::unique_ptr<Algorithm> algorithm = entry.make(*config);
    if (algorithm->family() == Family::kCollective)
      cases.push_back({entry.name, std::move(algorithm)});
  }
  AllReduceSgdConfig ring;
  AllReduceSgdConfig tree;
  tree.common.collective = "tree";
  tree.momentum = 0.5;
  AllGatherCompressedConfig ef;
  ef.error_feedback = true;
  AllGatherCompressedConfig ef_top_k;
  ef_top_k.error_feedback = true;
  ef_top_k.compressor = CompressorSpec("top_k");
  cases.push_back({"allreduce_sgd tree momentum", MakeAlgorithm("allreduce_sgd", tree)});
  cases.push_back({"allreduce_sgd bucketed", MakeAlgorithm("allreduce_sgd", ring), true});
  cases.push_back({"allgather_compressed ef", MakeAlgorithm("allgather_compressed", ef)});
  cases.push_back(
      {"allgather_compressed ef top_k", MakeAlgorithm("allgather_compressed", ef_top_k)});
  return cases;
}

struct GradRun {
  std::vector<IterationRecord> records;
  RunSummary summary;
};

GradRun RunWithThreads(const Algorithm& algorithm, const Objective& objective, bool layerwise,
                       int threads, int64_t iterations = 4) {
  RingConfig rc;
  rc.links.bandwidth_bps = 1e8;
  rc.links.latency_s = 2e-6;
  const Topology ring = RingBuilder(rc).Build(kGradWorkers);
  const LayerProfile layers{
      .name = "three",
      .layers = {Layer{"a", 20, 1, 2}, Layer{"b", 30, 1, 2}, Layer{"c", 10, 1, 2}}};
  ComputeTimeConfig cc = testing::FixedCompute(1e-3, layerwise, 16);
  cc.jitter = 0.5;
  cc.slowdown = {1, 2, 1, 0.5, 1};
  const ComputeTimeModel compute(cc, objective.flops_per_sample(), kGradWorkers, 1);
  RunSetup setup;
  setup.label = std::string(algorithm.info().name);
  setup.seed = 9;
  setup.objective = &objective;
  setup.topology = &ring;
  setup.compute = &compute;
  setup.layers = layerwise ? &layers : nullptr;
  setup.iterations = iterations;
  setup.step.size = 0.05;
  setup.threads = threads;
  algorithm.Check(setup);
  GradRun run;
  algorithm.Run(setup, &run.records, &run.summary);
  return run;
}

void ExpectSameRuns(const GradRun& a, const GradRun& b, const std::string& what) {
  EXPECT_EQ(a.summary.status, b.summary.status) << what;
  EXPECT_EQ(a.summary.message, b.summary.message) << what;
  EXPECT_EQ(a.summary.final_loss, b.summary.final_loss) << what;
  ASSERT_EQ(a.records.size(), b.records.size()) << what;
  for (size_t k = 0; k < a.records.size(); ++k) {
    const IterationRecord &x = a.records[k], &y = b.records[k];
    EXPECT_EQ(x.loss, y.loss) << what << ", iteration " << k;
    EXPECT_EQ(x.dist_to_opt_sq, y.dist_to_opt_sq) << what << ", iteration " << k;
    EXPECT_EQ(x.extra, y.extra) << what << ", iteration " << k;
    EXPECT_EQ(x.sim_time_s, y.sim_time_s) << what << ", iteration " << k;
    EXPECT_EQ(x.bits_up, y.bits_up) << what << ", iteration " << k;
  }
}

TEST(WorkerGradientsTest, EveryCollectiveAlgorithmGivesTheSameRunOnOneThreeAndEightThreads) {
  const testing::QuadraticObjective objective(kGradWorkers, kGradDim, 4, 0.0, 0.5);
  for (const GradCase& c : GradCases()) {
    const GradRun one = RunWithThreads(*c.algorithm, objective, c.layerwise, 1);
    ASSERT_EQ(one.summary.status, kStatusOk) << c.name << ": " << one.summary.message;
    ASSERT_EQ(one.records.size(), 5u) << c.name;
    EXPECT_NE(one.records[4].loss, one.records[0].loss) << c.name << ": nothing learned";
    for (const int threads : {3, 8}) {
      ExpectSameRuns(one, RunWithThreads(*c.algorithm, objective, c.layerwise, threads),
                     c.name + ", " + std::to_string(threads) + " threads");
    }
  }
}

// f_w's gradient is NaN at worker 2 once the model leaves the start (round 2).
class NanAfterStartObjective final : public test_objective::TestObjective {
 public:
  NanAfterStartObjective() : TestObjective("nan_after_start", kGradDim, kGradWorkers) {}
  double Gradient(int w, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t, Rng&,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    grad = x.array() - 1.0;
    if (w == 2 && x[0] != 0.0) grad[5] = NAN;
    return 0;
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const override {
    return (x.array() - 1.0).matrix().squaredNorm();
  }
};

TEST(WorkerGradientsTest, ANonFiniteGradientStopsTheRunAtThatWorkerOnAnyThreadCount) {
  const NanAfterStartObjective objective;
  const std::unique_ptr<Algorithm> sgd = MakeAlgorithm("allreduce_sgd", AllReduceSgdConfig());
  const GradRun one = RunWithThreads(*sgd, objective, false, 1);
  EXPECT_EQ(one.summary.status, kStatusDiverged);
  EXPECT_EQ(one.summary.message, "at iteration 2: worker 2's gradient has a non-finite value");
  ASSERT_EQ(one.records.size(), 3u);
  ExpectSameRuns(one, RunWithThreads(*sgd, objective, false, 3), "3 threads");
}

}  // namespace
}  // namespace commsim
