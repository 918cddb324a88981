#include "scenarios/sweep_point.h"

#include <gtest/gtest.h>

#include "analysis/csv.h"
#include "analysis/records_test_util.h"
#include "analysis/targets.h"

namespace commsim {
namespace {

RunResult TwoEntries(const std::string& second_status) {
  // Loss halving from 64 and from 256 over 6 iterations of 0.5 s.
  RunResult result = test_records::ResultOf(
      {test_records::Halving("fast", 64, 6), test_records::Halving("slow", 256, 6)});
  for (RunSummary& s : result.summaries) s.algorithm = "dore";
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
