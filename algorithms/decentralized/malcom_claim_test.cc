// The MALCOM-PSGD claim on real data, small enough for the test suite: l1-regularised softmax
// regression on an MNIST subset, 8 nodes on a ring. MALCOM (dithered s = 15 + vector source code)
// reaches the loss CHOCO-SGD with 4-bit qsgd / fixed coding has after 40 rounds with >= 60% fewer
// bits. Both at their tuned gamma_c (`commsim tune-consensus`, ring of 8, d = 7840: qsgd 0.7,
// dithered 0.2) and the same step. The full-size runs are scenarios/malcom_vs_choco*.json.
#include <gtest/gtest.h>

#include "algorithms/decentralized/choco.h"
#include "algorithms/registry.h"
#include "compression/compressors/qsgd.h"
#include "models/data_source.h"
#include "models/linear_models.h"
#include "models/problem.h"
#include "models/registry.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

TEST(MalcomClaimTest, FewerBitsToChocosLossOnMnistSoftmax) {
  const int n = 8;
  ProblemSpec spec;
  spec.model = ModelRegistry().DefaultSpec(kModelKind, "softmax_regression");
  static_cast<LinearModelConfig&>(*spec.model.config).l1 = 1e-3;
  static_cast<LinearModelConfig&>(*spec.model.config).l2 = 1e-4;
  spec.data = DatasetRegistry().DefaultSpec(kDatasetKind, "mnist");
  static_cast<BuiltinDataConfig&>(*spec.data.config).options.max_samples = 3000;
  spec.partition = PartitionRegistry().DefaultSpec(kPartitionKind, "iid");
  const std::shared_ptr<const Objective> objective = BuildProblem(spec, n, 1);
  const Topology ring = RingBuilder(RingConfig{}).Build(n);

  RunSetup setup;
  setup.label = "claim";
  setup.objective = objective.get();
  setup.topology = &ring;
  setup.iterations = 60;
  setup.metrics_every = 5;
  setup.step.size = 0.5;

  ChocoConfig choco;  // qsgd s = 15, b = 512, fixed coding
  choco.gamma_c = 0.7;
  ChocoConfig malcom;
  SetMalcomDefaults(malcom);
  malcom.gamma_c = 0.2;
  std::vector<IterationRecord> rc, rm;
  RunSummary sc, sm;
  MakeAlgorithm("choco", choco)->Run(setup, &rc, &sc);
  MakeAlgorithm("malcom", malcom)->Run(setup, &rm, &sm);

  const IterationRecord& target = rc[40 / 5];
  ASSERT_EQ(target.iteration, 40);
  const IterationRecord* reached = nullptr;
  for (const IterationRecord& r : rm) {
    if (r.loss <= target.loss) {
      reached = &r;
      break;
    }
  }
  ASSERT_NE(reached, nullptr) << "MALCOM never reached CHOCO's loss " << target.loss;
  const double reduction =
      1.0 - static_cast<double>(reached->cum_bits) / static_cast<double>(target.cum_bits);
  RecordProperty("bit_reduction", std::to_string(reduction));
  EXPECT_GE(reduction, 0.6) << "MALCOM bits " << reached->cum_bits << " at iteration "
                            << reached->iteration << ", CHOCO bits " << target.cum_bits;
  // The l1 prox leaves exact zeros in the nodes' models.
  EXPECT_LT(rm.back().extra.at("node_density"), 0.95);
  EXPECT_GT(*rm.back().test_accuracy, 0.8);
}

}  // namespace
}  // namespace commsim
