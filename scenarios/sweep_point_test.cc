#include "scenarios/sweep_point.h"

#include <gtest/gtest.h>

#include "analysis/csv.h"
#include "analysis/targets.h"

namespace commsim {
namespace {

// Entry e: loss halves every iteration from `start`, 0.5 s per iteration.
std::vector<IterationRecord> Halving(const std::string& label, double start, int iterations) {
  std::vector<IterationRecord> records;
  for (int k = 1; k <= iterations; ++k) {
    IterationRecord r;
    r.algorithm = label;
    r.iteration = k;
    r.sim_time_s = 0.5 * k;
    r.loss = start / (1 << k);
    records.push_back(r);
  }
  return records;
}

RunResult TwoEntries(const std::string& second_status) {
  RunResult result;
  result.records = {Halving("fast", 64, 6), Halving("slow", 256, 6)};
  for (const auto& records : result.records) {
    RunSummary s;
    s.name = records.front().algorithm;
    s.algorithm = "dore";
    s.iterations = 6;
    s.final_loss = records.back().loss;
    result.summaries.push_back(s);
  }
  result.summaries[1].status = second_status;
  return result;
}

TEST(SweepPointTest, PointSummaryIsTheRunSummaryWithItsTimeToTarget) {
  // Final losses 1 (fast) and 4 (slow): the run's own target is 4, reached by fast at k = 4
  // (2.0 s) and slow at k = 6 (3.0 s).
  RunResult result = TwoEntries(kStatusOk);
  ApplyTargets(result, {});
  const CsvTable t = ParseCsv(PointSummaryCsv(result, std::nullopt), "p");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.header().front(), "name");
  EXPECT_EQ(t.Number(0, "target_value"), 4.0);
  EXPECT_EQ(t.Number(0, "time_to_target_s"), 2.0);
  EXPECT_EQ(t.Number(1, "time_to_target_s"), 3.0);
  // The sweep's target_loss wins: 16 is reached at k = 2 (1.0 s) and k = 4 (2.0 s).
  const CsvTable e = ParseCsv(PointSummaryCsv(result, 16.0), "p");
  EXPECT_EQ(e.Number(0, "target_value"), 16.0);
  EXPECT_EQ(e.Number(0, "time_to_target_s"), 1.0);
  EXPECT_EQ(e.Number(1, "time_to_target_s"), 2.0);
}

}  // namespace
}  // namespace commsim
