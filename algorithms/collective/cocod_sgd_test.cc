// cocod_sgd against closed forms: its round time when the all-reduce of the models fits inside
// the local steps (the compute) and when it does not (the ring), its bits, and its iterates on
// the identity-Hessian quadratic.
#include "algorithms/collective/cocod_sgd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "algorithms/collective/allreduce_sgd.h"
#include "algorithms/registry.h"
#include "algorithms/run_test_util.h"
#include "sim/network_test_util.h"

namespace commsim {
namespace {

using net_test::Seconds;
using testing::FixedComputeRun;
using testing::LinkedRing;
using testing::RunOutput;

constexpr int kCocodWorkers = 4;
constexpr int kCocodDim = 12;
constexpr int64_t kCocodLatencyPs = 3'000'000;  // 3 us
constexpr int64_t kCocodPsPerBit = 1000;        // 1 Gbps
// The ring all-reduce of d fp64 values on n workers: 2(n-1) steps of one chunk of d/n values.
constexpr int64_t kCocodRingPs =
    2 * (kCocodWorkers - 1) * (kCocodLatencyPs + 64 * kCocodDim / kCocodWorkers * kCocodPsPerBit);

std::unique_ptr<Algorithm> Cocod(int64_t local_steps) {
  CocodSgdConfig c;
  c.common.value_bits = "64";
  c.local_steps = local_steps;
  return MakeAlgorithm("cocod_sgd", c);
}

RunOutput Play(const Algorithm& algorithm, int64_t compute_ps, int64_t iterations, double step) {
  const Topology ring = LinkedRing(kCocodWorkers, 1e9, 3e-6);
  FixedComputeRun run(ring, kCocodWorkers, kCocodDim, Seconds(compute_ps), nullptr);
  run.setup.iterations = iterations;
  run.setup.step.size = step;
  return run.Run(algorithm);
}

// 2 local steps of 5 ms hide the 19 us ring: a round is exactly the compute, 10 ms.
TEST(CocodSgdTest, WhenTheAllReduceFitsInTheLocalStepsARoundIsTheCompute) {
  const int64_t compute_ps = 5'000'000'000;
  ASSERT_LT(kCocodRingPs, 2 * compute_ps);
  const RunOutput out = Play(*Cocod(2), compute_ps, 3, 0.1);
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  for (int k = 1; k <= 3; ++k) {
    EXPECT_EQ(out.records[k].iter_time_s, Seconds(2 * compute_ps)) << k;
    EXPECT_EQ(out.records[k].compute_time_s, Seconds(2 * compute_ps)) << k;
    // n(n-1) chunks each way of the ring, 64 d / n bits each.
    EXPECT_EQ(out.records[k].bits_up,
              2 * (kCocodWorkers - 1) * kCocodWorkers * (64 * kCocodDim / kCocodWorkers))
        << k;
  }
}

// 2 local steps of 1 us do not cover the ring: a round is exactly the ring.
TEST(CocodSgdTest, WhenTheAllReduceIsLongerARoundIsTheAllReduce) {
  const int64_t compute_ps = 1'000'000;
  ASSERT_GT(kCocodRingPs, 2 * compute_ps);
  const RunOutput out = Play(*Cocod(2), compute_ps, 3, 0.1);
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  for (int k = 1; k <= 3; ++k) {
    EXPECT_EQ(out.records[k].iter_time_s, Seconds(kCocodRingPs)) << k;
    EXPECT_EQ(out.records[k].compute_time_s, Seconds(2 * compute_ps)) << k;
  }
}

// With one local step, CoCoD-SGD's round is max(compute, ring) where allreduce_sgd's is their
// sum: at a 1 us step the ring dominates both.
TEST(CocodSgdTest, OneLocalStepTakesTheLongerOfComputeAndRingNotTheirSum) {
  const int64_t compute_ps = 1'000'000;
  AllReduceSgdConfig sync;
  sync.common.value_bits = "64";
  const RunOutput cocod = Play(*Cocod(1), compute_ps, 2, 0.1);
  const RunOutput plain = Play(*MakeAlgorithm("allreduce_sgd", sync), compute_ps, 2, 0.1);
  EXPECT_EQ(cocod.records[2].iter_time_s, Seconds(kCocodRingPs));
  EXPECT_EQ(plain.records[2].iter_time_s, Seconds(kCocodRingPs + compute_ps));
}

// On f_i(x) = ||x - c_i||^2 / 2, k local steps of size g take y to c_i + (1-g)^k (x_i - c_i), so
// x_i <- mean + (1 - (1-g)^k)(c_i - x_i) and the workers' mean moves to mean(c) = x* by the
// factor (1-g)^k per round: ||xbar_r - x*||^2 = (1-g)^(2kr) ||x*||^2 from x0 = 0.
TEST(CocodSgdTest, TheMeanModelFollowsTheClosedFormOnTheQuadratic) {
  const double step = 0.25;
  for (const int64_t k : {1, 3}) {
    const RunOutput out = Play(*Cocod(k), 5'000'000'000, 6, step);
    ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
    const double d0 = *out.records[0].dist_to_opt_sq;
    for (int r = 1; r <= 6; ++r) {
      const double expected = std::pow(1 - step, 2.0 * static_cast<double>(k) * r) * d0;
      EXPECT_NEAR(*out.records[r].dist_to_opt_sq, expected, 1e-12 * d0) << k << " " << r;
    }
  }
}

}  // namespace
}  // namespace commsim
