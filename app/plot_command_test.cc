// `commsim plot` and `commsim report` through the built program.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/output_folder.h"
#include "analysis/writers.h"
#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

using testing::CommandResult;
using testing::RunCommsim;

TEST(PlotCommandTest, PlotsThenReportsARunFolder) {
  const fs::path dir = test_files::FreshDir("plot_command_test");
  RunResult run;
  for (const char* name : {"sgd", "qsgd"}) {
    std::vector<IterationRecord> records;
    for (int k = 1; k <= 5; ++k) {
      IterationRecord r;
      r.algorithm = name;
      r.iteration = k;
      r.sim_time_s = k;
      r.loss = 1.0 / k;
      r.bits_up = 10;
      r.cum_bits = 10 * k;
      records.push_back(r);
    }
    RunSummary s;
    s.name = name;
    s.algorithm = name;
    s.iterations = 5;
    s.total_bits = s.bits_up = 50;
    run.records.push_back(records);
    run.summaries.push_back(s);
  }
  WriteFileAtomic((dir / "metrics.csv").string(), MetricsCsv(run));
  WriteFileAtomic((dir / "summary.csv").string(), SummaryCsv(run));

  WriteMarker(dir.string(), OutputKind::kRun);  // plot and report write only into commsim's folders
  const CommandResult plot = RunCommsim("plot " + dir.string());
  EXPECT_EQ(plot.status, 0) << plot.out;
  EXPECT_TRUE(fs::exists(dir / "plots" / "loss_vs_bits.png"));
  EXPECT_TRUE(fs::exists(dir / "plots" / "loss_vs_bits.svg"));
  const CommandResult report = RunCommsim("report " + dir.string());
  EXPECT_EQ(report.status, 0) << report.out;
  std::ifstream in(dir / "report.md");
  std::stringstream md;
  md << in.rdbuf();
  EXPECT_NE(md.str().find("![training loss vs wire bits](plots/loss_vs_bits.png)"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "report.html"));
  EXPECT_NE(report.out.find("report.html"), std::string::npos);

  // --size column: 3.5 in figures (PDF beside PNG and SVG); an unknown size is refused.
  const CommandResult column = RunCommsim("plot --size column " + dir.string());
  EXPECT_EQ(column.status, 0) << column.out;
  std::ifstream script(dir / "plots" / "loss_vs_bits.gp");
  std::stringstream gp;
  gp << script.rdbuf();
  EXPECT_NE(gp.str().find("pdfcairo size 3.5in,"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "plots" / "loss_vs_bits.pdf"));
  const CommandResult a4 = RunCommsim("plot --size a4 " + dir.string());
  EXPECT_NE(a4.status, 0);
  EXPECT_NE(a4.out.find("--size: a4 not in {page,column}"), std::string::npos) << a4.out;

  const CommandResult bad = RunCommsim("report " + (dir / "missing").string());
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find("error: "), std::string::npos);
  EXPECT_NE(bad.out.find("neither a run folder"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace commsim
