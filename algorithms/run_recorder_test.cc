#include "algorithms/run_recorder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace commsim {
namespace {

// Drives a recorder with a given loss per iteration (index 0 = the initial point), 1 ms and
// 10 bits per iteration.
struct Driven {
  std::vector<IterationRecord> records;
  RunSummary summary;
};

Driven Drive(const RunSetup& setup, const std::vector<double>& losses) {
  RunRecorder recorder(setup, "sgd", "parameter_server");
  size_t at = 0;
  const RunRecorder::Evaluate evaluate = [&](IterationRecord& r) { r.loss = losses[at]; };
  recorder.Start(evaluate);
  // As the drivers do: nothing runs after a divergence at iteration 0.
  for (int64_t k = 1; k < static_cast<int64_t>(losses.size()) && !recorder.stopped(); ++k) {
    at = static_cast<size_t>(k);
    const IterationTiming t{.start = SimTime::FromNs((k - 1) * 1'000'000),
                            .end = SimTime::FromNs(k * 1'000'000),
                            .compute = SimTime(),
                            .bits_up = 10,
                            .bits_down = 0};
    if (!recorder.EndIteration(k, t, evaluate)) break;
  }
  Driven d;
  recorder.Finish(&d.records, &d.summary);
  return d;
}

TEST(RunRecorderTest, LossAboveTheFactorTimesTheInitialLossIsDivergence) {
  RunSetup setup;
  setup.iterations = 10;
  setup.divergence_factor = 1000;
  // Initial loss 2: 2000 is still fine, 2001 is past 1000 x 2.
  const Driven d = Drive(setup, {2, 50, 2000, 2001, 1});
  EXPECT_EQ(d.summary.status, kStatusDiverged);
  EXPECT_EQ(d.summary.iterations, 3);
  EXPECT_EQ(d.records.back().iteration, 3);
  EXPECT_EQ(d.records.back().status, kStatusDiverged);
  EXPECT_EQ(d.summary.message,
            "at iteration 3: loss 2001 > divergence_factor 1000 x initial loss 2");
  EXPECT_EQ(d.summary.total_bits, 30);
}

TEST(RunRecorderTest, AbsoluteBoundAndNonFiniteLossAreDivergence) {
  RunSetup setup;
  setup.iterations = 10;
  setup.divergence_loss = 100;
  EXPECT_EQ(Drive(setup, {200, 150}).summary.message,
            "at iteration 0: loss 200 > divergence_loss 100");
  EXPECT_EQ(Drive(setup, {1, NAN}).summary.message, "at iteration 1: loss is nan");
  const Driven ok = Drive(setup, {1, 0.5, 0.25});
  EXPECT_EQ(ok.summary.status, kStatusOk);
  EXPECT_EQ(ok.summary.message, "");
}

TEST(RunRecorderTest, StopRecordsTheIterationItHappenedIn) {
  RunSetup setup;
  setup.iterations = 100;
  setup.metrics_every = 50;
  RunRecorder recorder(setup, "sgd", "parameter_server");
  const RunRecorder::Evaluate evaluate = [](IterationRecord& r) { r.loss = 1; };
  const RunRecorder::Evaluate throwing = [](IterationRecord&) { throw std::runtime_error("x"); };
  recorder.Start(evaluate);
  IterationTiming t;
  t.bits_up = 7;
  for (int64_t k = 1; k <= 6; ++k) ASSERT_TRUE(recorder.EndIteration(k, t, evaluate));
  recorder.Stop(7, t, kStatusError, "time overflow", throwing);
  std::vector<IterationRecord> records;
  RunSummary summary;
  recorder.Finish(&records, &summary);
  ASSERT_EQ(records.size(), 2u);  // iteration 0 and the stop (6 unrecorded iterations between)
  EXPECT_EQ(records[1].iteration, 7);
  EXPECT_EQ(records[1].status, kStatusError);
  EXPECT_TRUE(std::isnan(records[1].loss));
  EXPECT_EQ(records[1].cum_bits, 49);
  EXPECT_EQ(summary.status, kStatusError);
  EXPECT_EQ(summary.message, "at iteration 7: time overflow");
}

}  // namespace
}  // namespace commsim
