#include "scenarios/tune_consensus.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "base/error_test_util.h"

namespace commsim {
namespace {

std::string ErrorOf(const TuneRequest& request) {
  return test_errors::ErrorOf([&] { RunTuneConsensus(request); }, "");
}

TEST(TuneConsensusCommandTest, IdentityOnAComplete4GraphPicksTheFullStep) {
  TuneRequest r;
  r.topology_json = "complete";
  r.nodes = 4;
  r.compressor_json = R"({"name": "identity", "precision": 64})";
  r.options.dim = 20;
  r.options.rounds = 5;
  r.options.grid = {0.5, 1.0};
  const TuneReport report = RunTuneConsensus(r);
  EXPECT_EQ(report.tuning.best_gamma(), 1.0);
  EXPECT_LT(report.tuning.final_error[1], 1e-25);  // uniform weights average in one step
  EXPECT_NEAR(report.spectral_gap, 1.0, 1e-12);
  EXPECT_EQ(report.tau, 1.0);
  const std::string text = FormatTuneReport(r, report);
  EXPECT_NE(text.find("best: \"gamma_c\": 1"), std::string::npos) << text;
  EXPECT_NE(text.find("1280.0"), std::string::npos) << text;  // 64 bits x 20 per node per round
}

TEST(TuneConsensusCommandTest, UnbiasedCompressorsAreRescaledByOnePlusOmega) {
  TuneRequest r;
  r.topology_json = R"({"name": "torus"})";
  r.nodes = 16;
  r.compressor_json = R"({"name": "qsgd", "levels": 15, "bucket": 64, "coding": "fixed"})";
  r.options.dim = 64;
  r.options.rounds = 40;
  r.options.grid = {0.5, 0.2};
  const TuneReport report = RunTuneConsensus(r);
  EXPECT_NEAR(report.spectral_gap, 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(report.tau, 1.0 + std::min(64.0 / 225.0, 8.0 / 15.0));
  r.options.rescale = "none";
  EXPECT_EQ(RunTuneConsensus(r).tau, 1.0);
}

TEST(TuneConsensusCommandTest, BadInputNamesTheOption) {
  TuneRequest r;
  r.options.grid = {0.3, 1.5};
  EXPECT_NE(ErrorOf(r).find("--grid: every gamma_c must be in (0, 1], got 1.5"), std::string::npos);
  r.options.grid = {};
  r.compressor_json = R"({"name": "qsgd", "levels": 0})";
  EXPECT_NE(ErrorOf(r).find("--compressor: /levels: must be"), std::string::npos) << ErrorOf(r);
  r.compressor_json = "qsdg";
  EXPECT_NE(ErrorOf(r).find("qsgd"), std::string::npos) << ErrorOf(r);  // did-you-mean
  r.compressor_json = "qsgd";
  r.topology_json = "star";
  r.graph = "topology";
  EXPECT_NE(ErrorOf(r).find("parameter server"), std::string::npos) << ErrorOf(r);
  r.graph = "grid";
  EXPECT_NE(ErrorOf(r).find("--graph: expected one of"), std::string::npos) << ErrorOf(r);
  r.graph = "auto";
  r.topology_json = "ring";
  r.mixing = "torus";
  EXPECT_NE(ErrorOf(r).find("4 neighbours"), std::string::npos) << ErrorOf(r);
  r.mixing = "auto";
  r.nodes = 1;
  EXPECT_NE(ErrorOf(r).find("--nodes"), std::string::npos);
}

}  // namespace
}  // namespace commsim
