#include "algorithms/run_recorder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "models/compute_time.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

// Drives a recorder with a given loss per iteration (index 0 = the initial point), 1 ms and
// 10 bits per iteration.
struct Driven {
  std::vector<IterationRecord> records;
  RunSummary summary;
};

Driven Drive(const RunSetup& setup, const std::vector<double>& losses) {
  RunRecorder recorder(setup, "sgd", Family::kParameterServer);
  size_t at = 0;
  const RunRecorder::Evaluate evaluate = [&](IterationRecord& r) { r.loss = losses[at]; };
  recorder.Start(evaluate);
  // As the drivers do: nothing runs after a divergence at iteration 0.
  for (int64_t k = 1; k < static_cast<int64_t>(losses.size()) && !recorder.stopped(); ++k) {
    at = static_cast<size_t>(k);
    const IterationTiming t{.start = SimTime::FromNs((k - 1) * 1'000'000),
                            .end = SimTime::FromNs(k * 1'000'000),
                            .compute = SimTime(),
                            .up = {.bits = 10, .bytes = 2}};
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
  EXPECT_EQ(d.summary.wire_bytes, 6);
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
  RunRecorder recorder(setup, "sgd", Family::kParameterServer);
  const RunRecorder::Evaluate evaluate = [](IterationRecord& r) { r.loss = 1; };
  const RunRecorder::Evaluate throwing = [](IterationRecord&) { throw std::runtime_error("x"); };
  recorder.Start(evaluate);
  IterationTiming t;
  t.up = {.bits = 7, .bytes = 1};
  t.down = {.bits = 3, .bytes = 5};
  for (int64_t k = 1; k <= 6; ++k) ASSERT_TRUE(recorder.EndIteration(k, t, evaluate));
  recorder.Stop(7, t, kStatusError, "time overflow", throwing);
  std::vector<IterationRecord> records;
  RunSummary summary;
  recorder.Finish(&records, &summary);
  ASSERT_EQ(records.size(), 2u);  // iteration 0 and the stop (6 unrecorded iterations between)
  EXPECT_EQ(records[1].iteration, 7);
  EXPECT_EQ(records[1].status, kStatusError);
  EXPECT_TRUE(std::isnan(records[1].loss));
  EXPECT_EQ(records[1].cum_bits, 70);
  EXPECT_EQ(records[1].wire_bytes, 6);  // the stopped iteration's own bytes
  EXPECT_EQ(summary.wire_bytes, 7 * 6);
  EXPECT_EQ(summary.status, kStatusError);
  EXPECT_EQ(summary.message, "at iteration 7: time overflow");
}

// The summary of a real run, recomputed here from its records (the rows of metrics.csv, one per
// iteration with metrics_every = 1): iterations, mean times, totals, last values. The compute
// time has jitter and the links differ, so iterations differ and a wrong divisor or a skipped
// iteration shows.
void ExpectSummaryOfRecords(const std::vector<IterationRecord>& records, const RunSummary& s,
                            int workers, int64_t dim) {
  ASSERT_GE(records.size(), 2u);
  const int64_t iterations = static_cast<int64_t>(records.size()) - 1;
  double iter_s = 0, compute_s = 0;
  int64_t up = 0, down = 0, bytes = 0;
  for (size_t k = 1; k < records.size(); ++k) {
    ASSERT_EQ(records[k].iteration, static_cast<int64_t>(k));
    iter_s += records[k].iter_time_s;
    compute_s += records[k].compute_time_s;
    up += records[k].bits_up;
    down += records[k].bits_down;
    bytes += records[k].wire_bytes;
  }
  EXPECT_EQ(s.status, kStatusOk);
  EXPECT_EQ(s.iterations, iterations);
  EXPECT_DOUBLE_EQ(s.mean_iter_time_s, iter_s / static_cast<double>(iterations));
  EXPECT_DOUBLE_EQ(s.mean_compute_time_s, compute_s / static_cast<double>(iterations));
  // comm = iteration - compute: a small difference of large sums, equal up to rounding.
  EXPECT_NEAR(s.mean_comm_time_s, (iter_s - compute_s) / static_cast<double>(iterations),
              1e-12 * s.mean_iter_time_s);
  EXPECT_GT(s.mean_comm_time_s, 0.0);
  EXPECT_DOUBLE_EQ(s.sim_time_s, records.back().sim_time_s);
  EXPECT_NEAR(s.sim_time_s, iter_s, 1e-12);  // rounds follow each other without gaps
  EXPECT_EQ(s.bits_up, up);
  EXPECT_EQ(s.bits_down, down);
  EXPECT_EQ(s.total_bits, up + down);
  EXPECT_EQ(s.total_bits, records.back().cum_bits);
  EXPECT_EQ(s.wire_bytes, bytes);
  const auto k = static_cast<double>(iterations);
  EXPECT_DOUBLE_EQ(s.bits_per_iteration, static_cast<double>(up + down) / k);
  EXPECT_DOUBLE_EQ(s.bits_up_per_worker, static_cast<double>(up) / (k * workers));
  EXPECT_DOUBLE_EQ(s.bits_down_per_worker, static_cast<double>(down) / (k * workers));
  EXPECT_DOUBLE_EQ(s.bits_per_parameter, static_cast<double>(up) / (k * workers * dim));
  EXPECT_EQ(s.final_loss, records.back().loss);
  EXPECT_EQ(s.final_dist_to_opt_sq, records.back().dist_to_opt_sq);
}

struct RealRun {
  std::vector<IterationRecord> records;
  RunSummary summary;
};

RealRun RunRegistered(const std::string& name, const Topology& topology, int workers) {
  const testing::QuadraticObjective objective(workers, 6, 2, 0.0, 0.5);
  ComputeTimeConfig cc;
  cc.seconds = 1e-3;
  cc.jitter = 0.5;
  const ComputeTimeModel compute(cc, objective.flops_per_sample(), workers, 3);
  RunSetup setup;
  setup.label = name;
  setup.seed = 11;
  setup.objective = &objective;
  setup.topology = &topology;
  setup.compute = &compute;
  setup.header_bits = 40;
  setup.iterations = 7;
  setup.step.size = 0.2;
  const std::unique_ptr<Algorithm> algorithm =
      AlgorithmRegistry().Make(AlgorithmRegistry().DefaultSpec("algorithm", name));
  RealRun r;
  algorithm->Run(setup, &r.records, &r.summary);
  return r;
}

TEST(RunRecorderTest, SummaryOfAParameterServerRunIsComputedFromItsRecords) {
  StarConfig c;
  c.workers.worker_bandwidths_bps = {1e6, 3e6, 7e6};
  const Topology star = StarBuilder(c).Build(3);
  const RealRun r = RunRegistered("qsgd", star, 3);
  ExpectSummaryOfRecords(r.records, r.summary, 3, 6);
  EXPECT_GT(r.summary.bits_down, 0);
}

TEST(RunRecorderTest, SummaryOfADecentralizedRunIsComputedFromItsRecords) {
  RingConfig c;
  c.links.bandwidth_bps = 3e6;
  const Topology ring = RingBuilder(c).Build(4);
  const RealRun r = RunRegistered("choco", ring, 4);
  ExpectSummaryOfRecords(r.records, r.summary, 4, 6);
  EXPECT_EQ(r.summary.bits_down, 0);
}

}  // namespace
}  // namespace commsim
