#include "analysis/report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/markdown_html.h"
#include "analysis/output_folder.h"
#include "analysis/records_test_util.h"
#include "analysis/writers.h"
#include "base/error.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

using ReportTest = test_files::TempDirTest;

TEST_F(ReportTest, RunReportTabulatesBitsReductionAndTimes) {
  RunResult run;
  for (const auto& [name, up, down] : {std::tuple{"sgd", 3200, 3200}, {"dore", 100, 100}}) {
    RunSummary s = test_records::BitsSummary(name, name, 10, up, down);
    s.mean_iter_time_s = 0.25;
    s.mean_compute_time_s = 0.125;
    s.mean_comm_time_s = 0.125;
    s.final_loss = 0.5;
    s.final_test_accuracy = 0.875;
    // The runner's per-iteration ratio to the family baseline: dore 200 / 6400.
    s.baseline = "sgd";
    s.bits_fraction_of_baseline = (up + down) / 6400.0;
    run.summaries.push_back(s);
  }
  run.target = RunTarget{"loss", 0.5, "the scenario's target_loss"};
  run.summaries[0].time_to_target_s = 2.5;
  run.summaries[0].bits_to_target = 64000;
  WriteFileAtomic((dir_ / "summary.csv").string(), SummaryCsv(run));
  WriteMarker(dir_.string(), OutputKind::kRun);  // plot and report write only there
  const std::string md = test_files::Read(WriteReport(dir_.string()));
  // dore: 200 of sgd's 6400 bits per iteration = 3.1%, a 96.9% reduction.
  EXPECT_NE(md.find("| dore | dore | ok | 10 | 2 kbit | 100 bit | 100 bit | sgd | 3.1% | 96.9% |"),
            std::string::npos)
      << md;
  EXPECT_NE(
      md.find("| sgd | sgd | ok | 10 | 64 kbit | 3.2 kbit | 3.2 kbit | sgd | 100.0% | 0.0% |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("## Time to target: loss <= 0.5\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| sgd | ok | 2.5 s | 64 kbit |"), std::string::npos) << md;
  EXPECT_NE(md.find("| dore | ok | not reached |  |"), std::string::npos) << md;
  EXPECT_NE(md.find("| dore | 250 ms | 125 ms | 125 ms |"), std::string::npos) << md;
  EXPECT_NE(md.find("final test accuracy"), std::string::npos);
  EXPECT_EQ(md.find("final ‖x−x*‖²"), std::string::npos);  // no data, no column
  EXPECT_NE(md.find("No plots yet"), std::string::npos);
}

TEST_F(ReportTest, RunReportShowsTheTimeBreakdownFigureInMarkdownAndHtml) {
  RunResult run;
  run.summaries.push_back(test_records::BitsSummary("sgd", "sgd", /*iterations=*/1, 0, 0));
  WriteFileAtomic((dir_ / "summary.csv").string(), SummaryCsv(run));
  fs::create_directories(dir_ / "plots");
  WriteFileAtomic((dir_ / "plots" / "time_breakdown.png").string(), "PNG");
  WriteFileAtomic((dir_ / "plots" / "time_breakdown.svg").string(), "<svg>bars</svg>");
  WriteMarker(dir_.string(), OutputKind::kRun);  // plot and report write only there
  const std::string md = test_files::Read(WriteReport(dir_.string()));
  EXPECT_NE(md.find("![time per iteration: compute, codec, communication]"
                    "(plots/time_breakdown.png)"),
            std::string::npos)
      << md;
  EXPECT_NE(test_files::Read(dir_ / "report.html").find(Base64("<svg>bars</svg>")),
            std::string::npos);
}

// The report states the run's time model, read from summary.json, under its title.
TEST_F(ReportTest, RunReportStatesTheTimeModelOfSummaryJson) {
  RunResult run;
  run.summaries.push_back(test_records::BitsSummary("sgd", "sgd", 2, 10, 10));
  run.time_model = "network flow, protocol none; codec none";
  WriteFileAtomic((dir_ / "summary.csv").string(), SummaryCsv(run));
  WriteFileAtomic((dir_ / "summary.json").string(), SummaryJson(run).dump(2));
  WriteMarker(dir_.string(), OutputKind::kRun);
  const std::string md = test_files::Read(WriteReport(dir_.string()));
  EXPECT_NE(md.find("\n\nTime model: network flow, protocol none; codec none.\n\n## "),
            std::string::npos)
      << md;
  fs::remove(dir_ / "summary.json");  // an older folder: no line
  EXPECT_EQ(test_files::Read(WriteReport(dir_.string())).find("Time model:"), std::string::npos);
}

// A time to target read from a handful of iterations is flagged; from 10 or more it is not.
TEST_F(ReportTest, ATimeToTargetFromFewIterationsIsFlagged) {
  for (const int64_t iterations : {3, 10}) {
    RunResult run;
    run.summaries.push_back(test_records::BitsSummary("sgd", "sgd", iterations, 100, 100));
    run.summaries.push_back(test_records::BitsSummary("dore", "dore", 12, 10, 10));
    run.target = RunTarget{"loss", 0.5, "the scenario's target_loss"};
    run.summaries[0].time_to_target_s = 1.0;
    WriteFileAtomic((dir_ / "summary.csv").string(), SummaryCsv(run));
    WriteMarker(dir_.string(), OutputKind::kRun);
    const std::string md = test_files::Read(WriteReport(dir_.string()));
    const bool flagged =
        md.find(
            "**Few iterations**: some entries ran only 3 iterations. A time to target read "
            "from fewer than 10 is a rough indication") != std::string::npos;
    EXPECT_EQ(flagged, iterations == 3) << md;
    EXPECT_EQ(md.find("**Few iterations**") != std::string::npos, iterations == 3) << md;
  }
}

TEST_F(ReportTest, SweepReportGivesSpeedupsAndTheCrossover) {
  // SGD 1 s per iteration; dore (x / 1e9)^0.5 s: faster below 1 Gbit/s, slower above.
  std::string csv =
      "point,bandwidth,name,algorithm,status,iterations,total_bits,final_loss,"
      "mean_iter_time_s,baseline,bits_fraction_of_baseline\n";
  for (int k = 0; k < 5; ++k) {
    const double x = std::pow(10.0, 7 + 0.75 * k);
    csv += fmt::format("{},{},sgd,sgd,ok,10,6400,0.5,1,sgd,1\n", k, x);
    csv += fmt::format("{},{},dore,dore,ok,10,200,0.5,{},sgd,0.03125\n", k, x, std::sqrt(x / 1e9));
  }
  WriteFileAtomic((dir_ / "sweep.csv").string(), csv);
  WriteFileAtomic((dir_ / "axes.csv").string(),
                  "name,pointer,unit,scale\nbandwidth,/network/bandwidth,bit/s,log\n");
  fs::create_directories(dir_ / "plots");
  std::ofstream(dir_ / "plots" / "time_per_iteration.png") << "png";
  const std::string md = SweepReport(dir_.string());
  EXPECT_NE(md.find("5 points x 2 algorithm entries; x axis: bandwidth (bit/s). Baseline: sgd."),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 10 Mbit/s | 1 s | 100 ms |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 10 Mbit/s | 10x |"), std::string::npos) << md;
  EXPECT_NE(md.find("| dore | slower above 1 Gbit/s | 10x at 10 Mbit/s | 0.316x at 10 Gbit/s |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| dore | ok | 20 bit | sgd | 96.9% | 0.5 |"), std::string::npos) << md;
  EXPECT_NE(md.find("![mean time per iteration](plots/time_per_iteration.png)"), std::string::npos);
  EXPECT_EQ(md.find("plots/speedup.png"), std::string::npos);  // not made
}

// A baseline entry with a label of its own ("ring", algorithm allreduce_sgd) is never compared
// with itself in the crossover table nor given a speed-up column; the PS entry whose family had no
// baseline is compared with the common one the runner wrote.
TEST_F(ReportTest, ALabelledBaselineIsNotComparedWithItself) {
  std::string csv =
      "point,bw,name,algorithm,family,status,iterations,total_bits,final_loss,mean_iter_time_s,"
      "baseline\n";
  for (int k = 0; k < 2; ++k) {
    csv += fmt::format(
        "{0},{1},ring,allreduce_sgd,collective,ok,10,100,0.5,1,ring\n"
        "{0},{1},dore,dore,parameter_server,ok,10,10,0.5,{2},ring\n",
        k, k == 0 ? 1e8 : 1e9, k == 0 ? 0.5 : 2.0);
  }
  WriteFileAtomic((dir_ / "sweep.csv").string(), csv);
  WriteFileAtomic((dir_ / "axes.csv").string(),
                  "name,pointer,unit,scale\nbw,/network/bandwidth,bit/s,log\n");
  const std::string md = SweepReport(dir_.string());
  const size_t at = md.find("## Crossover");
  const std::string crossover = md.substr(at, md.find("\n## ", at + 1) - at);
  EXPECT_EQ(crossover.find("| ring |"), std::string::npos) << md;
  EXPECT_NE(crossover.find("| dore | slower above "), std::string::npos) << md;
  const size_t from = md.find("## Speed-up over ring");
  const std::string speedup = md.substr(from, md.find("\n## ", from + 1) - from);
  EXPECT_NE(speedup.find("| bw | dore |"), std::string::npos) << md;
  EXPECT_NE(speedup.find("| 100 Mbit/s | 2x |"), std::string::npos) << md;
}

// Each row is compared with the baseline its `baseline` cell names (the runner writes its
// family's: dpsgd for decentralized entries, sgd for parameter-server ones).
TEST_F(ReportTest, SweepSpeedupIsOverEachFamilysBaseline) {
  std::string csv =
      "point,bw,name,algorithm,family,status,iterations,total_bits,final_loss,mean_iter_time_s,"
      "baseline\n";
  for (int k = 0; k < 2; ++k) {
    const double x = k == 0 ? 1e9 : 1e10;
    csv += fmt::format(
        "{0},{1},sgd,sgd,parameter_server,ok,10,100,0.5,1,sgd\n"
        "{0},{1},qsgd,qsgd,parameter_server,ok,10,50,0.5,0.5,sgd\n"
        "{0},{1},dpsgd,dpsgd,decentralized,ok,10,100,0.5,4,dpsgd\n"
        "{0},{1},choco,choco,decentralized,ok,10,10,0.5,2,dpsgd\n",
        k, x);
  }
  WriteFileAtomic((dir_ / "sweep.csv").string(), csv);
  WriteFileAtomic((dir_ / "axes.csv").string(), "name,pointer,unit,scale\nbw,/b,bit/s,log\n");
  const std::string md = SweepReport(dir_.string());
  EXPECT_NE(md.find("Baseline: sgd or dpsgd (by family)."), std::string::npos) << md;
  // Columns qsgd and choco (no baseline is compared with itself): 1 / 0.5, 4 / 2.
  EXPECT_NE(md.find("| bw | qsgd | choco |\n|---|---:|---:|\n| 1 Gbit/s | 2x | 2x |"),
            std::string::npos)
      << md;
}

TEST_F(ReportTest, FolderWithoutResultsIsAUserError) {
  EXPECT_THROW(WriteReport(dir_.string()), UserError);
}

}  // namespace
}  // namespace commsim
