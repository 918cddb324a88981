#include "models/compute_time.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/error.h"

namespace commsim {
namespace {

TEST(ComputeTimeTest, FixedSecondsTimesSlowdown) {
  ComputeTimeConfig c;
  c.seconds = 0.25;
  c.slowdown = {1.0, 3.0};
  const ComputeTimeModel model(c, 1e6, 2, 1);
  Rng rng(1);
  EXPECT_EQ(model.Sample(0, 32, rng), SimTime::FromSeconds(0.25));
  EXPECT_EQ(model.Sample(1, 32, rng), SimTime::FromSeconds(0.75));
}

TEST(ComputeTimeTest, FlopsModeUsesPresetsAndCustomRates) {
  ComputeTimeConfig c;
  c.mode = "flops";
  c.device = "v100";
  const ComputeTimeModel v100(c, 2.5e6, 4, 1);
  // LeNet-5-like: 2.5 MFLOP/sample x 128 / 15.7 TFLOP/s.
  EXPECT_DOUBLE_EQ(v100.MeanSeconds(3, 128), 2.5e6 * 128 / 15.7e12);
  Rng rng(1);
  EXPECT_EQ(v100.Sample(0, 128, rng), SimTime::FromSeconds(2.5e6 * 128 / 15.7e12));
  c.device = "custom";
  c.flops_per_s = 1e9;
  c.slowdown = {2.0};  // one entry: every worker
  const ComputeTimeModel custom(c, 1e6, 3, 1);
  EXPECT_DOUBLE_EQ(custom.MeanSeconds(2, 10), 2.0 * 1e6 * 10 / 1e9);
  EXPECT_DOUBLE_EQ(DevicePeakFlops("cpu_core"), 96e9);
  EXPECT_DOUBLE_EQ(DevicePeakFlops("a100"), 19.5e12);
  EXPECT_DOUBLE_EQ(DevicePeakFlops("h100"), 67e12);
}

TEST(ComputeTimeTest, EfficiencyDividesThePeakRate) {
  ComputeTimeConfig c;
  c.mode = "flops";
  c.device = "v100";
  c.efficiency = 0.25;
  const ComputeTimeModel quarter(c, 3.34e9, 2, 1);
  // 3.34 GFLOP/sample x 128 at a quarter of 15.7 TFLOP/s: 4 x the peak-rate time.
  const double at_peak_s = 3.34e9 * 128 / 15.7e12;
  EXPECT_DOUBLE_EQ(quarter.flops_per_s(), 15.7e12 / 4);
  EXPECT_DOUBLE_EQ(quarter.MeanSeconds(1, 128), 4 * at_peak_s);
  // custom rates too; exact in picoseconds: 1e9 x 10 / (1e12 x 0.25) = 0.04 s.
  c.device = "custom";
  c.flops_per_s = 1e12;
  const ComputeTimeModel custom(c, 1e9, 1, 1);
  Rng rng(1);
  EXPECT_EQ(custom.Sample(0, 10, rng).ps(), 40'000'000'000);
  c.efficiency = 1.0;
  EXPECT_EQ(ComputeTimeModel(c, 1e9, 1, 1).Sample(0, 10, rng).ps(), 10'000'000'000);
  // fixed mode ignores it: efficiency is about FLOP rates, slowdown about stragglers.
  c.mode = "fixed";
  c.seconds = 0.5;
  c.efficiency = 0.25;
  c.slowdown = {2.0};
  EXPECT_DOUBLE_EQ(ComputeTimeModel(c, 1e9, 1, 1).MeanSeconds(0, 10), 1.0);
}

TEST(ComputeTimeTest, JitterHasMeanOneAndIsReproducible) {
  ComputeTimeConfig c;
  c.seconds = 1.0;
  c.jitter = 0.5;
  const ComputeTimeModel model(c, 0.0, 1, 1);
  Rng a(5), b(5);
  double sum = 0.0, sum2 = 0.0;
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    const SimTime t = model.Sample(0, 1, a);
    EXPECT_EQ(t, model.Sample(0, 1, b));
    EXPECT_GT(t, SimTime::Zero());
    sum += t.seconds();
    sum2 += t.seconds() * t.seconds();
  }
  const double mean = sum / n;
  const double stddev = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(mean, 1.0, 0.015);
  EXPECT_NEAR(stddev, 0.5, 0.03);
}

TEST(ComputeTimeTest, SlowdownListMustMatchWorkers) {
  ComputeTimeConfig c;
  c.slowdown = {1.0, 2.0, 3.0};
  try {
    ComputeTimeModel(c, 1.0, 8, 1);
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "slowdown: has 3 entries, expected 1 or one per worker (8)");
  }
}

}  // namespace
}  // namespace commsim
