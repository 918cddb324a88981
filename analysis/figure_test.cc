// What the figures show and how: suboptimality, tic formats, entry styles, sizes.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "analysis/gnuplot.h"
#include "analysis/plot.h"
#include "analysis/subprocess.h"
#include "analysis/sweep_view.h"
#include "analysis/writers.h"
#include "base/error.h"
#include "base/error_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;

struct ItemStyle {
  std::string color;
  int dash = 0;
  int point = 0;
};

// The style of every `plot` item of a script that has markers (reference lines left out).
std::vector<ItemStyle> ItemStyles(const std::string& script) {
  static const std::regex item(
      "pointtype (\\d+) .*? dashtype (\\d+) linecolor rgb '(#[0-9a-f]{6})'");
  std::vector<ItemStyle> styles;
  for (auto it = std::sregex_iterator(script.begin(), script.end(), item);
       it != std::sregex_iterator(); ++it) {
    styles.push_back({(*it)[3], std::stoi((*it)[2]), std::stoi((*it)[1])});
  }
  return styles;
}

// Two entries of DORE, one SGD; loss = F* + 2^-k with F* = 0.25, so F - F* = 2^-k exactly.
RunResult TwoDoresAndSgd(bool with_optimum, const char* family = "parameter_server") {
  RunResult result;
  const std::vector<std::pair<std::string, std::string>> entries = {
      {"dore", "dore"}, {"dore_slow", "dore"}, {"sgd", "sgd"}};
  for (const auto& [label, algorithm] : entries) {
    std::vector<IterationRecord> records;
    for (int k = 0; k <= 40; ++k) {
      IterationRecord r;
      r.algorithm = label;
      r.iteration = k;
      r.sim_time_s = 0.01 * k;
      r.loss = 0.25 + std::ldexp(1.0, -k);
      r.bits_up = 1000;
      r.cum_bits = 1000 * k * k;
      records.push_back(r);
    }
    RunSummary s;
    s.name = label;
    s.algorithm = algorithm;
    s.family = family;
    // Decentralized entries report the nodes' consensus distance (plots then show x̄).
    if (std::string(family) == "decentralized") s.final_consensus_dist = 1e-3;
    s.iterations = 40;
    s.bits_up = s.total_bits = 40000;
    if (with_optimum) s.extra["optimal_loss"] = 0.25;
    result.records.push_back(records);
    result.summaries.push_back(s);
  }
  return result;
}

class FigureTest : public test_files::TempDirTest {
 protected:
  void Write(const RunResult& run) {
    WriteFileAtomic((dir_ / "metrics.csv").string(), MetricsCsv(run));
    WriteFileAtomic((dir_ / "summary.csv").string(), SummaryCsv(run));
  }
  // Scripts only: a gnuplot that does not exist.
  void ScriptsOnly(FigureSize size = FigureSize::kPage) {
    PlotRunFolder(dir_.string(), {.gnuplot = "commsim-no-gnuplot", .log = nullptr, .size = size});
  }
};

TEST_F(FigureTest, SuboptimalityIsPlottedWhenTheOptimumIsKnown) {
  Write(TwoDoresAndSgd(true));
  ScriptsOnly();
  const std::string script = Read(dir_ / "plots" / "loss_vs_iteration.gp");
  EXPECT_NE(script.find("set ylabel 'suboptimality F(x) − F*' noenhanced"), std::string::npos);
  EXPECT_NE(script.find("set logscale y"), std::string::npos);
  // Every data line is "k 2^-k".
  std::istringstream data(Read(dir_ / "plots" / "loss_vs_iteration.dat"));
  std::string line;
  int points = 0;
  while (std::getline(data, line)) {
    if (line.empty() || line[0] == '#') continue;
    double k = 0, y = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf %lf", &k, &y), 2) << line;
    EXPECT_EQ(y, std::ldexp(1.0, -static_cast<int>(k))) << line;
    ++points;
  }
  EXPECT_EQ(points, 3 * 41);
  EXPECT_NE(Read(dir_ / "plots" / "loss_vs_bits.gp").find("F(x) − F*"), std::string::npos);
}

TEST_F(FigureTest, TrainingLossWithoutAnOptimumAndTheMeanForDecentralizedRuns) {
  Write(TwoDoresAndSgd(false));
  ScriptsOnly();
  EXPECT_NE(Read(dir_ / "plots" / "loss_vs_iteration.gp").find("'training loss F(x)'"),
            std::string::npos);
  EXPECT_NE(Read(dir_ / "plots" / "loss_vs_iteration.dat").find("\n0 1.25\n"), std::string::npos);
  Write(TwoDoresAndSgd(true, "decentralized"));
  ScriptsOnly();
  EXPECT_NE(Read(dir_ / "plots" / "loss_vs_iteration.gp").find("F(x̄) − F*"), std::string::npos);
}

TEST_F(FigureTest, LogAxesGetPowersOfTenAndBitAxesSiPrefixes) {
  Write(TwoDoresAndSgd(true));
  ScriptsOnly();
  const std::string iteration = Read(dir_ / "plots" / "loss_vs_iteration.gp");
  EXPECT_NE(iteration.find("set format y '10^{%L}'"), std::string::npos);
  EXPECT_NE(iteration.find("set format x '% h'"), std::string::npos);  // linear: gnuplot's own
  const std::string bits = Read(dir_ / "plots" / "loss_vs_bits.gp");
  EXPECT_NE(bits.find("set logscale x"), std::string::npos);  // 1k .. 1.6M
  EXPECT_NE(bits.find("set format x '%.0s%c'"), std::string::npos);
  for (const auto& e : fs::directory_iterator(dir_ / "plots")) {
    if (e.path().extension() != ".gp") continue;
    EXPECT_FALSE(std::regex_search(Read(e.path()), std::regex("format [xy] '[^']*%[0-9.]*f")))
        << e.path();
  }
}

TEST_F(FigureTest, EntryStylesDifferInColourMarkerAndDashWithinAnAlgorithm) {
  const std::vector<SeriesStyle> s = EntryStyles({"dore", "dore", "sgd", "dore", "memsgd"},
                                                 {"#d62728", "#d62728", "#222222", "#d62728"});
  EXPECT_EQ(s[0].color, "#d62728");
  EXPECT_EQ(s[2].color, "#222222");
  EXPECT_EQ(s[4].color, AlgorithmColor("memsgd"));  // no colour given: the palette
  std::set<std::string> colors;
  std::set<int> points;
  for (const SeriesStyle& style : s) {
    colors.insert(style.color);
    points.insert(style.point);
  }
  EXPECT_EQ(colors.size(), s.size());
  EXPECT_EQ(points.size(), s.size());
  EXPECT_EQ(std::set<int>({s[0].dash, s[1].dash, s[3].dash}).size(), 3u);
  // Many entries of one algorithm still get different colours, and markers up to the limit.
  const std::vector<SeriesStyle> many = EntryStyles(std::vector<std::string>(40, "qsgd"));
  colors.clear();
  points.clear();
  for (size_t i = 0; i < many.size(); ++i) {
    colors.insert(many[i].color);
    if (i < kDistinctMarkers) points.insert(many[i].point);
  }
  EXPECT_EQ(colors.size(), many.size());
  EXPECT_EQ(points.size(), kDistinctMarkers);
}

TEST_F(FigureTest, EveryCurveOfARunFolderHasItsOwnColourAndMarker) {
  Write(TwoDoresAndSgd(true));
  ScriptsOnly();
  for (const char* name : {"loss_vs_iteration", "loss_vs_bits", "loss_vs_time"}) {
    const std::vector<ItemStyle> styles =
        ItemStyles(Read(dir_ / "plots" / (name + std::string(".gp"))));
    ASSERT_EQ(styles.size(), 3u) << name;
    std::set<std::string> colors;
    std::set<int> points;
    for (const ItemStyle& s : styles) {
      colors.insert(s.color);
      points.insert(s.point);
    }
    EXPECT_EQ(colors.size(), 3u) << name;
    EXPECT_EQ(points.size(), 3u) << name;
    EXPECT_NE(styles[0].dash, styles[1].dash) << name;  // the two DOREs
  }
}

TEST_F(FigureTest, ColumnAndPageSizesGiveThePaperDimensions) {
  Write(TwoDoresAndSgd(true));
  ScriptsOnly(FigureSize::kColumn);
  std::string script = Read(dir_ / "plots" / "loss_vs_iteration.gp");
  EXPECT_NE(script.find("pdfcairo size 3.5in,3in"), std::string::npos);
  EXPECT_NE(script.find("pngcairo size 525,450"), std::string::npos);  // 150 dpi
  EXPECT_EQ(script.find("set title"), std::string::npos);  // a caption does that in a paper
  ScriptsOnly(FigureSize::kPage);
  script = Read(dir_ / "plots" / "loss_vs_iteration.gp");
  EXPECT_NE(script.find("pdfcairo size 7in,3.6in"), std::string::npos);
  EXPECT_NE(script.find("pngcairo size 1050,540"), std::string::npos);
  EXPECT_NE(script.find("set title 'Suboptimality vs iteration' noenhanced"), std::string::npos);
  EXPECT_EQ(ParseFigureSize("column"), FigureSize::kColumn);
  EXPECT_EQ(ParseFigureSize("page"), FigureSize::kPage);
  EXPECT_EQ(ParseFigureSize("a4"), std::nullopt);
}

TEST_F(FigureTest, RenderedColumnFigureIsAPdfAndA525By450Png) {
  if (FindProgram("gnuplot").empty()) GTEST_SKIP() << "gnuplot not installed";
  Write(TwoDoresAndSgd(true));
  ASSERT_TRUE(PlotRunFolder(dir_.string(), {.size = FigureSize::kColumn}));
  const std::string png = Read(dir_ / "plots" / "loss_vs_bits.png");
  ASSERT_GE(png.size(), 24u);
  auto be32 = [&](size_t at) {
    return (static_cast<uint32_t>(static_cast<unsigned char>(png[at])) << 24) |
           (static_cast<unsigned char>(png[at + 1]) << 16) |
           (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
  };
  EXPECT_EQ(be32(16), 525u);  // IHDR width
  EXPECT_EQ(be32(20), 450u);  // IHDR height
  EXPECT_EQ(Read(dir_ / "plots" / "loss_vs_bits.pdf").rfind("%PDF", 0), 0u);
}

TEST_F(FigureTest, SweepAxesOfStepSizesAndParametersGetTheirLetter) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"/step/size", "", "x (γ)"},
      {"/algorithms/2/gamma_c", "", "x (γ)"},
      {"/algorithms/0/alpha", "", "x (α)"},
      {"/network/bandwidth", "bit/s", "x (bit/s)"},
      {"/workers", "", "x"}};
  for (const auto& [pointer, unit, label] : cases) {
    WriteFileAtomic((dir_ / "sweep.csv").string(),
                    "point,x,name,algorithm,mean_iter_time_s\n0,1,sgd,sgd,1\n1,2,sgd,sgd,1\n");
    WriteFileAtomic((dir_ / "axes.csv").string(),
                    fmt::format("name,pointer,unit,scale\nx,{},{},list\n", pointer, unit));
    EXPECT_EQ(SweepView::Load(dir_.string()).XLabel(), label) << pointer;
  }
}

TEST_F(FigureTest, RenderingTwiceGivesByteIdenticalImages) {
  if (FindProgram("gnuplot").empty()) GTEST_SKIP() << "gnuplot not installed";
  Write(TwoDoresAndSgd(true));
  ASSERT_TRUE(PlotRunFolder(dir_.string()));
  std::map<std::string, std::string> first;
  for (const auto& e : fs::directory_iterator(dir_ / "plots")) first[e.path()] = Read(e.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // a new second for PDF dates
  ASSERT_TRUE(PlotRunFolder(dir_.string()));
  ASSERT_GE(first.size(), 15u);
  for (const auto& [path, bytes] : first) EXPECT_EQ(Read(path), bytes) << path;
  EXPECT_NE(
      first[(dir_ / "plots" / "loss_vs_bits.pdf").string()].find("/CreationDate (D:20000101000000"),
      std::string::npos);
}

// Writes a run folder whose summary has the given extra columns (and a minimal metrics.csv).
void WriteTimeSummary(const fs::path& dir, const std::string& header,
                      const std::vector<std::string>& rows) {
  WriteFileAtomic((dir / "metrics.csv").string(),
                  "algorithm,iteration,loss,cum_bits,sim_time_s\nsgd,0,1,0,0\ndore,0,1,0,0\n");
  std::string summary = "name,algorithm,iterations,mean_iter_time_s," + header + "\n";
  for (const std::string& row : rows) summary += row + "\n";
  WriteFileAtomic((dir / "summary.csv").string(), summary);
}

TEST_F(FigureTest, TimeBreakdownStacksComputeCodecAndCommunicationInOneUnit) {
  // sgd: 0.125 s compute + 0.0625 s codec + 0.25 s communication = 0.4375 s -> milliseconds.
  WriteTimeSummary(dir_, "mean_compute_time_s,mean_codec_time_s,mean_comm_time_s",
                   {"sgd,sgd,4,0.4375,0.125,0.0625,0.25", "dore,dore,4,0.25,0.125,,0.125"});
  ScriptsOnly();
  const std::string data = Read(dir_ / "plots" / "time_breakdown.dat");
  EXPECT_NE(data.find(fmt::format("\n0 125 62.5 250 {}\n",
                                  std::stol(AlgorithmColor("sgd").substr(1), nullptr, 16))),
            std::string::npos)
      << data;
  EXPECT_NE(data.find("\n1 125 0 125 "), std::string::npos) << data;  // empty codec cell = 0
  const std::string script = Read(dir_ / "plots" / "time_breakdown.gp");
  EXPECT_NE(script.find("set ylabel 'mean time per iteration (ms)'"), std::string::npos);
  // Stacked bottom up: the communication bar is the sum of all three, codec of two.
  EXPECT_NE(script.find("using 1:($2+$3+$4):(0.7):5"), std::string::npos) << script;
  EXPECT_NE(script.find("using 1:($2+$3):(0.7):5"), std::string::npos) << script;
  EXPECT_NE(script.find("('sgd' 0, 'dore' 1)"), std::string::npos) << script;
}

TEST_F(FigureTest, TimeBreakdownWithoutACodecColumnCountsCodecAsZero) {
  // Summaries written before codec time was modelled; 2 µs and 1 µs -> microseconds.
  WriteTimeSummary(dir_, "mean_compute_time_s,mean_comm_time_s",
                   {"sgd,sgd,4,3e-6,2e-6,1e-6", "dore,dore,4,nan,nan,nan"});
  ScriptsOnly();
  const std::string data = Read(dir_ / "plots" / "time_breakdown.dat");
  EXPECT_NE(data.find("\n0 2 0 1 "), std::string::npos) << data;
  EXPECT_NE(data.find("\n1 0 0 0 "), std::string::npos) << data;  // a failed entry: no bar
  EXPECT_NE(Read(dir_ / "plots" / "time_breakdown.gp").find("(µs)"), std::string::npos);
}

// A stand-in for gnuplot: a shell script with the given body.
std::string FakeGnuplot(const fs::path& dir, const std::string& body) {
  const fs::path path = dir / "fake-gnuplot";
  WriteFileAtomic(path.string(), "#!/bin/sh\n" + body + "\n");
  fs::permissions(path, fs::perms::owner_all);
  return path.string();
}

TEST_F(FigureTest, AFailingOrSilentGnuplotIsAnErrorNamingTheCause) {
  Write(TwoDoresAndSgd(true));
  // Exits 0 but writes nothing (as on a full disk): the missing image is named.
  const std::string silent = test_errors::ErrorOf(
      [&] { PlotRunFolder(dir_.string(), {.gnuplot = FakeGnuplot(dir_, "exit 0")}); });
  EXPECT_NE(silent.find("plots/loss_vs_iteration.png: gnuplot wrote no image"), std::string::npos)
      << silent;
  // Fails: its exit status and message are passed on.
  const std::string failed = test_errors::ErrorOf([&] {
    PlotRunFolder(dir_.string(), {.gnuplot = FakeGnuplot(dir_, "echo \"bad script\" >&2; exit 3")});
  });
  EXPECT_NE(failed.find("gnuplot failed (exit status 3):\nbad script"), std::string::npos)
      << failed;
}

}  // namespace
}  // namespace commsim
