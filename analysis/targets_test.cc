#include "analysis/targets.h"

#include <gtest/gtest.h>

#include <cmath>

#include "analysis/csv.h"
#include "analysis/records_test_util.h"
#include "analysis/writers.h"

namespace commsim {
namespace {

using test_records::Halving;

// fast: 64 -> 1, slow: 256 -> 4, bad: diverged with a final loss of 1e9.
RunResult ThreeEntries(int iterations = 6) {
  RunResult result = test_records::ResultOf(
      {Halving("fast", 64, iterations), Halving("slow", 256, iterations), Halving("bad", 1e9, 1)});
  result.summaries[2].status = kStatusDiverged;
  result.summaries[2].final_loss = 1e9;
  return result;
}

TEST(TargetsTest, DefaultIsTheLargestFinalLossOfTheEntriesThatDidNotDiverge) {
  RunResult r = ThreeEntries();
  ApplyTargets(r, {});
  ASSERT_TRUE(r.target.has_value());
  // max(1, 4) = 4; the diverged entry's 1e9 is not a candidate.
  EXPECT_EQ(r.target->metric, "loss");
  EXPECT_EQ(r.target->value, 4.0);
  EXPECT_NE(r.target->rule.find("largest final loss among the 2 entries"), std::string::npos);
  // fast: 64/2^k <= 4 first at k = 4 (2.0 s, 400 bits); slow: 256/2^k <= 4 at k = 6.
  EXPECT_EQ(r.summaries[0].time_to_target_s, 2.0);
  EXPECT_EQ(r.summaries[0].bits_to_target, 400);
  EXPECT_EQ(r.summaries[1].time_to_target_s, 3.0);
  EXPECT_EQ(r.summaries[1].bits_to_target, 600);
  EXPECT_FALSE(r.summaries[2].time_to_target_s.has_value());
}

TEST(TargetsTest, UserTargetsWinAndAccuracyCountsUpwards) {
  RunResult r = ThreeEntries();
  ApplyTargets(r, {.target_loss = 16.0, .target_accuracy = std::nullopt});
  EXPECT_EQ(r.target->value, 16.0);
  EXPECT_EQ(r.summaries[0].time_to_target_s, 1.0);  // 64/4 = 16 at k = 2
  EXPECT_EQ(r.summaries[1].time_to_target_s, 2.0);  // 256/16 = 16 at k = 4
  // Accuracy 1 - loss/1024 >= 0.99 <=> loss <= 10.24: fast at k = 3, slow at k = 5.
  ApplyTargets(r, {.target_loss = 16.0, .target_accuracy = 0.99});
  EXPECT_EQ(r.target->metric, "test_accuracy");
  EXPECT_EQ(r.summaries[0].time_to_target_s, 1.5);
  EXPECT_EQ(r.summaries[1].time_to_target_s, 2.5);
}

// A target met exactly counts as reached: accuracy 1 - 4/1024 = 0.99609375 (exact in binary) is
// fast's at k = 4 (2.0 s) and slow's at k = 6 (3.0 s), the same as a loss target of 4.
TEST(TargetsTest, ATargetMetExactlyIsReached) {
  RunResult r = ThreeEntries();
  ApplyTargets(r, {.target_loss = std::nullopt, .target_accuracy = 0.99609375});
  EXPECT_EQ(r.summaries[0].time_to_target_s, 2.0);
  EXPECT_EQ(r.summaries[1].time_to_target_s, 3.0);
  ApplyTargets(r, {.target_loss = 4.0, .target_accuracy = std::nullopt});
  EXPECT_EQ(r.summaries[0].time_to_target_s, 2.0);
  EXPECT_EQ(r.summaries[1].time_to_target_s, 3.0);
}

TEST(TargetsTest, OmittedWhenItCannotBeMeaningful) {
  // One iteration per entry: reaching the target would only repeat the run time.
  RunResult one = ThreeEntries(/*iterations=*/1);
  ApplyTargets(one, {});
  EXPECT_FALSE(one.target.has_value());
  EXPECT_NE(one.target_omitted.find("fewer than two iterations"), std::string::npos);
  EXPECT_FALSE(one.summaries[0].time_to_target_s.has_value());
  // A single entry that did not diverge: nothing to compare.
  RunResult lone = ThreeEntries();
  lone.summaries[1].status = kStatusError;
  ApplyTargets(lone, {});
  EXPECT_FALSE(lone.target.has_value());
  EXPECT_NE(lone.target_omitted.find("fewer than two entries"), std::string::npos);
  // An explicit target still applies.
  ApplyTargets(lone, {.target_loss = 8.0, .target_accuracy = std::nullopt});
  EXPECT_EQ(lone.summaries[0].time_to_target_s, 1.5);
}

TEST(TargetsTest, SummaryFilesCarryTheTargetAndEachEntrysTimeAndBits) {
  RunResult r = ThreeEntries();
  ApplyTargets(r, {});
  const CsvTable t = ParseCsv(SummaryCsv(r), "summary.csv");
  EXPECT_EQ(t.Cell(0, "target_metric"), "loss");
  EXPECT_EQ(t.Number(2, "target_value"), 4.0);
  EXPECT_EQ(t.Number(1, "time_to_target_s"), 3.0);
  EXPECT_EQ(t.Number(1, "bits_to_target"), 600);
  EXPECT_EQ(t.Cell(2, "time_to_target_s"), "");
  const nlohmann::json j = SummaryJson(r);
  EXPECT_EQ(j["target"]["value"], 4.0);
  EXPECT_EQ(j["algorithms"][0]["bits_to_target"], 400);
  EXPECT_TRUE(j["algorithms"][2]["time_to_target_s"].is_null());
}

}  // namespace
}  // namespace commsim
