// allreduce_compressed: rand_k with a shared seed, its kept values all-reduced. The iterates
// against allgather_compressed with the same shared indices (a different path: every message
// decoded and averaged), the ring's bits and time in closed form, and the summability check.
#include "algorithms/collective/allreduce_compressed.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "algorithms/collective/allgather_compressed.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "algorithms/run_test_util.h"
#include "models/compute_time.h"
#include "sim/network_test_util.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

using net_test::Seconds;
using testing::QuadraticObjective;
using testing::RunOutput;

RunOutput RunOnRing(const Algorithm& algorithm, int n, int dim) {
  const Topology ring = testing::LinkedRing(n, 1e9, 3e-6);
  testing::FixedComputeRun run(ring, n, dim, 1e-3, nullptr);
  run.setup.iterations = 6;
  run.setup.header_bits = 40;
  run.setup.step.size = 0.1;
  return run.Run(algorithm);
}

ComponentSpec QuarterRandK() {
  ComponentSpec spec = CompressorSpec("rand_k");
  dynamic_cast<RandKConfig&>(*spec.config).fraction = 0.25;
  return spec;
}

TEST(AllReduceCompressedTest, SumOfKeptValuesEqualsTheAllGatherOfTheSameIndices) {
  for (const bool ef : {false, true}) {
    AllReduceCompressedConfig reduce;
    reduce.common.value_bits = "64";
    reduce.compressor = QuarterRandK();
    reduce.error_feedback = ef;
    AllGatherCompressedConfig gather;
    gather.compressor = QuarterRandK();
    gather.shared_seed = true;
    gather.error_feedback = ef;
    const RunOutput a = RunOnRing(*MakeAlgorithm("allreduce_compressed", reduce), 4, 32);
    const RunOutput b = RunOnRing(*MakeAlgorithm("allgather_compressed", gather), 4, 32);
    ASSERT_EQ(a.summary.status, kStatusOk) << a.summary.message;
    ASSERT_EQ(a.records.size(), b.records.size());
    for (size_t k = 1; k < a.records.size(); ++k) {
      EXPECT_NEAR(a.records[k].loss, b.records[k].loss, 1e-12 * std::abs(b.records[k].loss))
          << "error feedback " << ef << ", record " << k;
    }
    // Not the iterates of independent indices: the shared seed is what makes them sum.
    gather.shared_seed = false;
    const RunOutput own = RunOnRing(*MakeAlgorithm("allgather_compressed", gather), 4, 32);
    EXPECT_NE(own.records.back().loss, b.records.back().loss);
  }
}

// d = 32, k = 8, n = 4: 2(n - 1) ring steps, each worker sending 2 fp32 values and a header.
TEST(AllReduceCompressedTest, BitsAndTimeAreTheRingAllReduceOfTheKeptValues) {
  AllReduceCompressedConfig c;
  c.compressor = QuarterRandK();
  const int n = 4;
  const RunOutput out = RunOnRing(*MakeAlgorithm("allreduce_compressed", c), n, 32);
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  const int64_t wire = 32 * 2 + 40;
  EXPECT_EQ(out.records[1].bits_up, 2 * (n - 1) * n * wire);
  EXPECT_EQ(out.records[1].iter_time_s,
            Seconds(1'000'000'000 + 2 * (n - 1) * (3'000'000 + wire * 1000)));
}

TEST(AllReduceCompressedTest, OnlyASummableCompressorIsAccepted) {
  AllReduceCompressedConfig c;
  c.compressor = CompressorSpec("top_k");
  ParamProblems problems;
  c.Validate(problems);
  ASSERT_EQ(problems.problems().size(), 1u);
  EXPECT_EQ(problems.problems()[0].key, "compressor");
  EXPECT_NE(problems.problems()[0].message.find("summable"), std::string::npos);
  EXPECT_NE(problems.problems()[0].message.find("\"top_k\""), std::string::npos);
  c.compressor = QuarterRandK();
  ParamProblems none;
  c.Validate(none);
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace commsim
