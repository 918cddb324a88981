#include "analysis/writers.h"

#include <gtest/gtest.h>

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
            "algorithm,iteration,sim_time_s,iter_time_s,compute_time_s,comm_time_s,loss,"
            "dist_to_opt_sq,test_accuracy,consensus_dist,density,bits_up,bits_down,cum_bits,"
            "status,model_residual_sq");
  EXPECT_EQ(row1, "sgd,1,0.5,0.5,0.25,0.25,0.3333333333333333,2,,,,64,32,96,ok,");
  EXPECT_EQ(row2, "dore,1,0.5,0.5,0.25,0.25,0.3333333333333333,,,,,64,32,96,ok,0.125");
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
  a.extra["spectral_gap"] = 0.25;
  RunSummary b;
  b.name = "sgd";
  b.bits_fraction_of_sgd = 1.0;
  r.summaries = {a, b};
  const std::string csv = SummaryCsv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "name,algorithm,family,status,iterations,final_loss,final_dist_to_opt_sq,"
            "final_test_accuracy,final_consensus_dist,final_density,total_bits,bits_up,bits_down,"
            "mean_iter_time_s,mean_compute_time_s,mean_comm_time_s,sim_time_s,"
            "bits_fraction_of_sgd,spectral_gap");
  EXPECT_NE(csv.find("\nchoco,choco,,ok,0,0,,,,,100,0,0,0,0,0,0,,0.25\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nsgd,,,ok,0,0,,,,,0,0,0,0,0,0,0,1,\n"), std::string::npos) << csv;
}

}  // namespace
}  // namespace commsim
