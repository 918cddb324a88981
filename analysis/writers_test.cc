#include "analysis/writers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace commsim {
namespace {

RunResult Sample() {
  RunResult r;
  IterationRecord a;
  a.algorithm = "sgd";
  a.iteration = 1;
  a.sim_time_s = 0.5;
  a.iter_time_s = 0.5;
  a.compute_time_s = 0.25;
  a.comm_time_s = 0.25;
  a.loss = 1.0 / 3;
  a.dist_to_opt_sq = 2.0;
  a.bits_up = 64;
  a.bits_down = 32;
  a.cum_bits = 96;
  a.wire_bytes = 14;
  IterationRecord b = a;
  b.algorithm = "dore";
  b.dist_to_opt_sq.reset();
  b.extra["model_residual_sq"] = 0.125;
  r.records = {{a}, {b}};
  RunSummary s;
  s.name = "sgd";
  s.final_loss = a.loss;
  r.summaries = {s};
  return r;
}

TEST(WritersTest, CsvHasFixedColumnsEmptyOptionalsAndExtraColumns) {
  const std::string csv = MetricsCsv(Sample());
  std::istringstream in(csv);
  std::string header, row1, row2;
  std::getline(in, header);
  std::getline(in, row1);
  std::getline(in, row2);
  EXPECT_EQ(header,
            "algorithm,iteration,sim_time_s,iter_time_s,compute_time_s,codec_time_s,comm_time_s,"
            "overlap_saved_s,loss,dist_to_opt_sq,test_accuracy,consensus_dist,density,bits_up,"
            "bits_down,cum_bits,wire_bytes,status,model_residual_sq");
  EXPECT_EQ(row1, "sgd,1,0.5,0.5,0.25,0,0.25,0,0.3333333333333333,2,,,,64,32,96,14,ok,");
  EXPECT_EQ(row2, "dore,1,0.5,0.5,0.25,0,0.25,0,0.3333333333333333,,,,,64,32,96,14,ok,0.125");
}

TEST(WritersTest, SummaryJsonUsesNullForMissing) {
  const nlohmann::json j = SummaryJson(Sample());
  ASSERT_EQ(j["algorithms"].size(), 1u);
  EXPECT_TRUE(j["algorithms"][0]["final_dist_to_opt_sq"].is_null());
  EXPECT_EQ(j["algorithms"][0]["status"], "ok");
}

}  // namespace
}  // namespace commsim

namespace commsim {
namespace {

TEST(WritersTest, SummaryCsvHasOneRowPerAlgorithmWithExtras) {
  RunResult r;
  RunSummary a;
  a.name = "choco";
  a.algorithm = "choco";
  a.total_bits = 100;
  a.wire_bytes = 21;
  a.extra["spectral_gap"] = 0.25;
  RunSummary b;
  b.name = "sgd";
  b.baseline = "sgd";
  b.bits_fraction_of_baseline = 1.0;
  b.status = kStatusDiverged;
  b.message = "at iteration 3: loss is nan, \"x\"";
  r.summaries = {a, b};
  const std::string csv = SummaryCsv(r);
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')),
      "name,algorithm,family,color,status,message,iterations,final_loss,final_dist_to_opt_sq,"
      "final_test_accuracy,final_consensus_dist,final_density,total_bits,bits_up,bits_down,"
      "wire_bytes,bits_per_iteration,bits_up_per_worker,bits_down_per_worker,bits_per_parameter,"
      "mean_iter_time_s,mean_compute_time_s,mean_codec_time_s,mean_comm_time_s,"
      "mean_overlap_saved_s,codec,sim_time_s,baseline,bits_fraction_of_baseline,"
      "target_metric,target_value,time_to_target_s,bits_to_target,spectral_gap");
  EXPECT_NE(
      csv.find("\nchoco,choco,,,ok,,0,0,,,,,100,0,0,21,0,0,0,0,0,0,0,0,0,none,0,,,,,,,0.25\n"),
      std::string::npos)
      << csv;
  // A message with a comma and quotes is one quoted cell.
  EXPECT_NE(csv.find("\nsgd,,,,diverged,\"at iteration 3: loss is nan, \"\"x\"\"\",0,0,,,,,0,0,"
                     "0,0,0,0,0,0,0,0,0,0,0,none,0,sgd,1,,,,,\n"),
            std::string::npos)
      << csv;
}

}  // namespace
}  // namespace commsim

namespace commsim {
namespace {

// The target is a summary.csv column pair (same on every row) but not a field of the JSON
// entries; an empty baseline is null in JSON but an empty cell in CSV.
TEST(WritersTest, TargetColumnsAreCsvOnlyAndEmptyBaselineIsJsonNull) {
  RunResult r;
  RunSummary s;
  s.name = "qsgd";
  s.time_to_target_s = 0.5;
  s.bits_to_target = 1024;
  r.summaries = {s};
  r.target = RunTarget{"loss", 0.25, "given"};
  const std::string csv = SummaryCsv(r);
  EXPECT_NE(csv.find(",,,loss,0.25,0.5,1024\n"), std::string::npos) << csv;
  const nlohmann::json entry = SummaryJson(r)["algorithms"][0];
  EXPECT_FALSE(entry.contains("target_metric"));
  EXPECT_FALSE(entry.contains("target_value"));
  EXPECT_TRUE(entry["baseline"].is_null());
  EXPECT_EQ(entry["bits_to_target"], 1024);
  EXPECT_EQ(entry["time_to_target_s"], 0.5);
  const std::vector<std::string> keys = {"algorithm",
                                         "baseline",
                                         "bits_down",
                                         "bits_down_per_worker",
                                         "bits_fraction_of_baseline",
                                         "bits_per_iteration",
                                         "bits_per_parameter",
                                         "bits_to_target",
                                         "bits_up",
                                         "bits_up_per_worker",
                                         "codec",
                                         "color",
                                         "family",
                                         "final_consensus_dist",
                                         "final_density",
                                         "final_dist_to_opt_sq",
                                         "final_loss",
                                         "final_test_accuracy",
                                         "iterations",
                                         "mean_codec_time_s",
                                         "mean_comm_time_s",
                                         "mean_compute_time_s",
                                         "mean_iter_time_s",
                                         "mean_overlap_saved_s",
                                         "message",
                                         "name",
                                         "sim_time_s",
                                         "status",
                                         "time_to_target_s",
                                         "total_bits",
                                         "wire_bytes"};
  std::vector<std::string> got;
  for (const auto& [key, value] : entry.items()) got.push_back(key);
  EXPECT_EQ(got, keys);
}

// A label with a comma stays one cell of metrics.csv.
TEST(WritersTest, MetricsCsvQuotesLabelsWithCommas) {
  RunResult r;
  IterationRecord a;
  a.algorithm = "top_k, 1%";
  a.iteration = 2;
  a.loss = std::nan("");
  r.records = {{a}};
  const std::string csv = MetricsCsv(r);
  EXPECT_EQ(csv.substr(csv.find('\n') + 1), "\"top_k, 1%\",2,0,0,0,0,0,0,nan,,,,,0,0,0,0,ok\n");
}

TEST(WritersTest, ReportShowsTheOptionalQualityColumnsWithTitles) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"final_dist_to_opt_sq", "final ‖x−x*‖²"},
      {"final_test_accuracy", "final test accuracy"},
      {"final_consensus_dist", "final consensus distance"},
      {"final_density", "final density"}};
  EXPECT_EQ(SummaryReportColumns(), expected);
}

}  // namespace
}  // namespace commsim
