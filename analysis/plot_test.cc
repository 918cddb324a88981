#include "analysis/plot.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/output_folder.h"
#include "analysis/records_test_util.h"
#include "analysis/sweep_view.h"
#include "analysis/text_test_util.h"
#include "analysis/writers.h"
#include "base/error.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;

// A run of three algorithms with closed-form curves: loss = 2^-k (sgd), 1.5^-k (others).
RunResult SampleRun() {
  RunResult result;
  const std::vector<std::pair<std::string, std::string>> entries = {
      {"sgd", "sgd"}, {"dore", "dore"}, {"mem_sgd top-1%", "memsgd"}};
  for (const auto& [label, algorithm] : entries) {
    std::vector<IterationRecord> records;
    const int64_t up = algorithm == "sgd" ? 3200 : 100;
    const int64_t down = algorithm == "dore" ? 100 : 3200;
    for (int k = 0; k <= 50; ++k) {  // iteration 0: before any communication, cum_bits 0
      IterationRecord r;
      r.algorithm = label;
      r.iteration = k;
      r.iter_time_s = 0.01;
      r.sim_time_s = 0.01 * k;
      r.loss = std::pow(algorithm == "sgd" ? 2.0 : 1.5, -k);
      r.dist_to_opt_sq = r.loss * 3;
      r.test_accuracy = 1 - r.loss;
      r.bits_up = up;
      r.bits_down = down;
      r.cum_bits = k * (up + down);
      records.push_back(r);
    }
    result.records.push_back(records);
    result.summaries.push_back(test_records::BitsSummary(label, algorithm, 50, up, down));
  }
  return result;
}

bool IsPng(const fs::path& p) { return Read(p).rfind("\x89PNG\r\n\x1a\n", 0) == 0; }
bool IsSvg(const fs::path& p) {
  const std::string text = Read(p);
  return text.find("<svg") != std::string::npos && text.find("</svg>") != std::string::npos;
}

using PlotTest = test_files::TempDirTest;

TEST_F(PlotTest, RunFolderGivesValidPngAndSvgWhoseScriptsNameEveryAlgorithm) {
  const RunResult run = SampleRun();
  WriteFileAtomic((dir_ / "metrics.csv").string(), MetricsCsv(run));
  WriteFileAtomic((dir_ / "summary.csv").string(), SummaryCsv(run));
  WriteMarker(dir_.string(), OutputKind::kRun);  // plot and report write only there
  ASSERT_TRUE(PlotFolder(dir_.string()));
  for (const char* name : {"loss_vs_iteration", "dist_vs_iteration", "loss_vs_bits", "loss_vs_time",
                           "accuracy_vs_bits", "bits_per_iteration", "time_breakdown"}) {
    SCOPED_TRACE(name);
    const fs::path plots = dir_ / "plots";
    EXPECT_TRUE(IsPng(plots / fmt::format("{}.png", name)));
    EXPECT_TRUE(IsSvg(plots / fmt::format("{}.svg", name)));
    const std::string script = Read(plots / fmt::format("{}.gp", name));
    for (const RunSummary& s : run.summaries) {
      const bool named = script.find(GnuplotString(s.name)) != std::string::npos ||
                         script.find(GnuplotTicLabel(s.name)) != std::string::npos;
      EXPECT_TRUE(named) << s.name;
    }
  }
  EXPECT_FALSE(fs::exists(dir_ / "plots" / "consensus_vs_iteration.gp"));  // no such column data
  const std::string loss = Read(dir_ / "plots" / "loss_vs_iteration.gp");
  EXPECT_NE(loss.find("set logscale y"), std::string::npos);  // 2^-50 .. 0.67
  EXPECT_EQ(loss.find("set logscale x"), std::string::npos);
  // Bits span 100..330k; the records with cum_bits 0 do not prevent a log axis.
  EXPECT_NE(Read(dir_ / "plots" / "loss_vs_bits.gp").find("set logscale x"), std::string::npos);
  EXPECT_NE(loss.find(AlgorithmColor("dore")), std::string::npos);  // no color column: palette
}

TEST_F(PlotTest, ColoursComeFromTheSummaryElseAStablePalette) {
  EXPECT_EQ(AlgorithmColor("dore", "#D62728"), "#d62728");
  EXPECT_EQ(AlgorithmColor("someday"), AlgorithmColor("someday"));
  EXPECT_EQ(AlgorithmColor("someday", "red"), AlgorithmColor("someday"));  // not #rrggbb
  EXPECT_EQ(AlgorithmColor("someday", "#12345"), AlgorithmColor("someday"));
  EXPECT_EQ(AlgorithmColor("someday").size(), 7u);
}

TEST_F(PlotTest, MissingGnuplotIsOneLineAndTheScriptsStillExist) {
  const RunResult run = SampleRun();
  WriteFileAtomic((dir_ / "metrics.csv").string(), MetricsCsv(run));
  WriteFileAtomic((dir_ / "summary.csv").string(), SummaryCsv(run));
  char* text = nullptr;
  size_t size = 0;
  std::FILE* log = open_memstream(&text, &size);
  const bool rendered =
      PlotRunFolder(dir_.string(), {.gnuplot = "commsim-no-such-gnuplot", .log = log});
  std::fclose(log);
  const std::string logged(text, size);
  std::free(text);
  EXPECT_FALSE(rendered);
  EXPECT_EQ(std::count(logged.begin(), logged.end(), '\n'), 1);
  EXPECT_NE(logged.find("commsim-no-such-gnuplot not found"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "plots" / "loss_vs_bits.gp"));
  EXPECT_FALSE(fs::exists(dir_ / "plots" / "loss_vs_bits.png"));
  EXPECT_THROW(PlotFolder((dir_ / "nothing").string()), UserError);
}

// sweep.csv where SGD takes 1 s per iteration and `dore` (x / 1e9)^0.5 s: the speed-up
// (1e9 / x)^0.5 is a straight line in log-log, so the crossover is exactly 1 Gbit/s.
void WriteSweep(const fs::path& dir) {
  // A second, zipped axis (latency moving with bandwidth) does not split the curves.
  std::string csv =
      "point,bandwidth,latency,name,algorithm,mean_iter_time_s,mean_compute_time_s,baseline\n";
  for (int k = 0; k < 7; ++k) {
    const double x = std::pow(10.0, 7 + 0.5 * k);
    csv += fmt::format("{},{},{},sgd,sgd,1,0.05,sgd\n", k, x, k);
    csv += fmt::format("{},{},{},dore,dore,{},0.05,sgd\n", k, x, k, std::sqrt(x / 1e9));
  }
  WriteFileAtomic((dir / "sweep.csv").string(), csv);
  WriteFileAtomic((dir / "axes.csv").string(),
                  "name,pointer,unit,scale\nbandwidth,/network/bandwidth,bit/s,log\n"
                  "latency,/network/latency,s,linear\n");
}

TEST_F(PlotTest, SweepViewFindsSpeedupAndCrossover) {
  WriteSweep(dir_);
  const SweepView view = SweepView::Load(dir_.string());
  EXPECT_EQ(view.baseline(), "sgd");
  EXPECT_TRUE(view.x_log());
  ASSERT_EQ(view.curves().size(), 2u);
  const SweepCurve& dore = view.curves()[1];
  EXPECT_DOUBLE_EQ(*view.Speedup(dore.rows[0]), std::sqrt(100.0));
  const std::vector<Crossing> crossings = view.Crossings(dore);
  ASSERT_EQ(crossings.size(), 1u);
  EXPECT_NEAR(crossings[0].x / 1e9, 1.0, 1e-9);
  EXPECT_TRUE(crossings[0].stops_paying);
  EXPECT_EQ(FormatSi(1.778e9, "bit/s"), "1.78 Gbit/s");
  EXPECT_EQ(FormatSi(1e7, "bit/s"), "10 Mbit/s");
  EXPECT_EQ(FormatSi(0.002, "s"), "2 ms");
}

TEST_F(PlotTest, SweepFolderGivesTimeAndSpeedupPlots) {
  WriteSweep(dir_);
  WriteMarker(dir_.string(), OutputKind::kRun);  // plot and report write only there
  ASSERT_TRUE(PlotFolder(dir_.string()));
  for (const char* name : {"time_per_iteration", "speedup"}) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(IsPng(dir_ / "plots" / fmt::format("{}.png", name)));
    EXPECT_TRUE(IsSvg(dir_ / "plots" / fmt::format("{}.svg", name)));
  }
  const std::string time = Read(dir_ / "plots" / "time_per_iteration.gp");
  test_text::ExpectHas(
      time, {"title 'sgd' noenhanced", "title 'dore' noenhanced", "title 'compute time' noenhanced",
             "set logscale x", "set logscale y", "bandwidth (bit/s)"});
  const std::string speedup = Read(dir_ / "plots" / "speedup.gp");
  EXPECT_NE(speedup.find("title 'dore' noenhanced"), std::string::npos);
  EXPECT_EQ(speedup.find("title 'sgd'"), std::string::npos);       // the baseline itself is 1
  EXPECT_FALSE(fs::exists(dir_ / "plots" / "time_to_target.gp"));  // no such column
}

}  // namespace
}  // namespace commsim
