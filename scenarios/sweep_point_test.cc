#include "scenarios/sweep_point.h"

#include <gtest/gtest.h>

#include "analysis/csv.h"

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

TEST(SweepPointTest, TimeToTargetIsTheFirstRecordAtOrBelowTheTarget) {
  const std::vector<IterationRecord> r = Halving("a", 64, 6);  // 32, 16, 8, 4, 2, 1
  EXPECT_EQ(TimeToTarget(r, 8.0), 1.5);
  EXPECT_EQ(TimeToTarget(r, 7.9), 2.0);
  EXPECT_EQ(TimeToTarget(r, 100.0), 0.5);
  EXPECT_FALSE(TimeToTarget(r, 0.5).has_value());
}

TEST(SweepPointTest, DefaultTargetIsTheWorstFinalLossOfEntriesThatFinishedOk) {
  // Final losses 1 (fast) and 4 (slow): the target is 4, reached by fast at 2.0 s, slow at 3.0 s.
  const CsvTable t = ParseCsv(PointSummaryCsv(TwoEntries(kStatusOk), std::nullopt), "p");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.header().front(), "name");
  EXPECT_EQ(t.Number(0, "target_loss"), 4.0);
  EXPECT_EQ(t.Number(0, "time_to_target_s"), 2.0);
  EXPECT_EQ(t.Number(1, "time_to_target_s"), 3.0);
  // A diverged entry does not set the target: 1 (fast only); slow never gets there.
  const CsvTable d = ParseCsv(PointSummaryCsv(TwoEntries(kStatusDiverged), std::nullopt), "p");
  EXPECT_EQ(d.Number(0, "target_loss"), 1.0);
  EXPECT_EQ(d.Number(0, "time_to_target_s"), 3.0);
  EXPECT_EQ(d.Cell(1, "time_to_target_s"), "");
  // An explicit target wins.
  const CsvTable e = ParseCsv(PointSummaryCsv(TwoEntries(kStatusOk), 16.0), "p");
  EXPECT_EQ(e.Number(0, "time_to_target_s"), 1.0);
  EXPECT_EQ(e.Number(1, "time_to_target_s"), 2.0);
}

}  // namespace
}  // namespace commsim
