#include "analysis/claims.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/records_test_util.h"

namespace commsim {
namespace {

using test_records::Halving;
using test_records::ResultOf;

// Two entries: "a" (loss 8 halving over 4 iterations: final 0.5) and "b" (64: final 4), with
// final accuracies 0.90 and 0.87, bits 100 and 10 per iteration, and a residual column on "a".
RunResult TwoEntries() {
  RunResult r = ResultOf({Halving("a", 8, 4), Halving("b", 64, 4)});
  r.summaries[0].final_test_accuracy = 0.90;
  r.summaries[1].final_test_accuracy = 0.87;
  r.summaries[0].bits_per_iteration = 100;
  r.summaries[1].bits_per_iteration = 10;
  r.summaries[1].mean_compute_time_s = 2.0;
  r.summaries[1].mean_comm_time_s = 1.0;
  for (IterationRecord& rec : r.records[0]) {
    rec.extra["residual"] = 1.0 / static_cast<double>(1 << (3 * rec.iteration));
  }
  return r;
}

const std::vector<std::string> kLabels = {"a", "b"};

ClaimConfig Claim(const std::string& kind, const std::string& entries) {
  ClaimConfig c;
  c.claim = "a claim";
  c.kind = kind;
  c.entries = entries;
  return c;
}

TEST(ClaimsTest, BelowAndAboveCompareEverySummaryFieldWithTheBound) {
  ClaimConfig c = Claim("below", "a, b");
  c.field = "final_loss";
  c.value = 5.0;  // a 0.5, b 4
  EXPECT_TRUE(EvaluateClaim(c, TwoEntries(), kLabels).holds);
  c.value = 1.0;
  const ClaimOutcome o = EvaluateClaim(c, TwoEntries(), kLabels);
  EXPECT_FALSE(o.holds);
  EXPECT_EQ(o.measured, "a 0.5, b 4");
  c.kind = "above";
  c.value = 0.25;
  EXPECT_TRUE(EvaluateClaim(c, TwoEntries(), kLabels).holds);
}

TEST(ClaimsTest, NearOrAboveAllowsTheToleranceBelowTheReference) {
  ClaimConfig c = Claim("near_or_above", "b");
  c.field = "final_test_accuracy";
  c.of = "a";
  c.tolerance = 0.02;  // 0.87 < 0.90 - 0.02
  EXPECT_FALSE(EvaluateClaim(c, TwoEntries(), kLabels).holds);
  c.tolerance = 0.04;
  const ClaimOutcome o = EvaluateClaim(c, TwoEntries(), kLabels);
  EXPECT_TRUE(o.holds);
  EXPECT_EQ(o.measured, "a 0.9, b 0.87");
}

TEST(ClaimsTest, RatioBelowDividesByTheReferenceOrItsOtherField) {
  ClaimConfig c = Claim("ratio_below", "b");
  c.field = "bits_per_iteration";
  c.of = "a";
  c.value = 0.1;  // 10 / 100
  ClaimOutcome o = EvaluateClaim(c, TwoEntries(), kLabels);
  EXPECT_TRUE(o.holds);
  EXPECT_EQ(o.measured, "a 100, b 10 (0.1×)");
  c.value = 0.09;
  EXPECT_FALSE(EvaluateClaim(c, TwoEntries(), kLabels).holds);
  // b's communication against its own compute: 1 / 2.
  c.field = "mean_comm_time_s";
  c.of = "b";
  c.of_field = "mean_compute_time_s";
  c.value = 0.5;
  o = EvaluateClaim(c, TwoEntries(), kLabels);
  EXPECT_TRUE(o.holds);
  EXPECT_EQ(o.measured, "b mean_compute_time_s 2, b 1 (0.5×)");
}

TEST(ClaimsTest, DecayComparesAMetricsColumnAtTwoIterations) {
  ClaimConfig c = Claim("decay", "a");
  c.column = "residual";
  c.from = 1;
  c.to = 3;
  c.value = 1.0 / 64;  // 2^-3 -> 2^-9: exactly 1/64
  const ClaimOutcome o = EvaluateClaim(c, TwoEntries(), kLabels);
  EXPECT_TRUE(o.holds);
  EXPECT_EQ(o.measured, "a 0.125 -> 0.00195");
  c.value = 1.0 / 65;
  EXPECT_FALSE(EvaluateClaim(c, TwoEntries(), kLabels).holds);
  c.to = 9;  // never recorded
  EXPECT_EQ(EvaluateClaim(c, TwoEntries(), kLabels).measured, "a (not recorded)");
}

TEST(ClaimsTest, AMissingOrFailedEntryMakesTheClaimNotHold) {
  ClaimConfig c = Claim("below", "a, zz");
  c.field = "final_loss";
  c.value = 100;
  ClaimOutcome o = EvaluateClaim(c, TwoEntries(), kLabels);
  EXPECT_FALSE(o.holds);
  EXPECT_EQ(o.measured, "a 0.5, zz (no such entry)");
  RunResult diverged = TwoEntries();
  diverged.summaries[1].status = kStatusDiverged;
  c.entries = "b";
  o = EvaluateClaim(c, diverged, kLabels);
  EXPECT_FALSE(o.holds);
  EXPECT_EQ(o.measured, "b diverged");
}

TEST(ClaimsTest, ValidateNamesWhatEachKindNeeds) {
  ClaimConfig c;
  c.kind = "ratio_below";
  ParamProblems problems;
  c.Validate(problems);
  std::vector<std::string> keys;
  for (const auto& p : problems.problems()) keys.push_back(p.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"claim", "entries", "field", "of"}));
  EXPECT_EQ(Claim("below", " x ,, y ").EntryList(), (std::vector<std::string>{"x", "y"}));
}

}  // namespace
}  // namespace commsim
