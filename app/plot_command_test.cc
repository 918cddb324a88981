// `commsim plot` and `commsim report` through the built program.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/writers.h"
#include "sim/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

struct Ran {
  int status = -1;
  std::string output;  // stdout and stderr
};

Ran RunCommsim(const std::string& args) {
  Ran ran;
  std::FILE* pipe = ::popen(fmt::format("{} {} 2>&1", COMMSIM_BINARY, args).c_str(), "r");
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) ran.output.append(buffer, n);
  const int status = ::pclose(pipe);
  ran.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ran;
}

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

  const Ran plot = RunCommsim("plot " + dir.string());
  EXPECT_EQ(plot.status, 0) << plot.output;
  EXPECT_TRUE(fs::exists(dir / "plots" / "loss_vs_bits.png"));
  EXPECT_TRUE(fs::exists(dir / "plots" / "loss_vs_bits.svg"));
  const Ran report = RunCommsim("report " + dir.string());
  EXPECT_EQ(report.status, 0) << report.output;
  std::ifstream in(dir / "report.md");
  std::stringstream md;
  md << in.rdbuf();
  EXPECT_NE(md.str().find("![training loss vs wire bits](plots/loss_vs_bits.png)"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "report.html"));
  EXPECT_NE(report.output.find("report.html"), std::string::npos);

  // --size column: 3.5 in figures (PDF beside PNG and SVG); an unknown size is refused.
  const Ran column = RunCommsim("plot --size column " + dir.string());
  EXPECT_EQ(column.status, 0) << column.output;
  std::ifstream script(dir / "plots" / "loss_vs_bits.gp");
  std::stringstream gp;
  gp << script.rdbuf();
  EXPECT_NE(gp.str().find("pdfcairo size 3.5in,"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "plots" / "loss_vs_bits.pdf"));
  const Ran a4 = RunCommsim("plot --size a4 " + dir.string());
  EXPECT_NE(a4.status, 0);
  EXPECT_NE(a4.output.find("--size: a4 not in {page,column}"), std::string::npos) << a4.output;

  const Ran bad = RunCommsim("report " + (dir / "missing").string());
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.output.find("error: "), std::string::npos);
  EXPECT_NE(bad.output.find("neither a run folder"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace commsim
