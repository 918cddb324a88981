// Every shipped scenario and sweep (scenarios/*.json) gives figures a reviewer would accept: no
// fixed-point tic labels (10^n on log axes) and every entry distinguishable by colour and marker.
// The plots are drawn by gnuplot from synthetic records with the files' own entry lists (labels,
// algorithms, families) and, for sweeps, the files' own axes and points, so the test does not run
// the heavy scenarios themselves.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "algorithms/algorithm.h"
#include "algorithms/registry.h"
#include "analysis/plot.h"
#include "analysis/subprocess.h"
#include "analysis/writers.h"
#include "base/file_test_util.h"
#include "scenarios/runner.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_runner.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;

bool IsSweepFile(const fs::path& file) {
  return nlohmann::json::parse(Read(file)).contains("axes");
}

// Records spanning several decades, a different pace per entry.
RunResult SyntheticRun(const Scenario& scenario, double time_scale) {
  RunResult run;
  for (size_t e = 0; e < scenario.algorithms.size(); ++e) {
    const AlgorithmEntry& entry = scenario.algorithms[e];
    const std::string family(FamilyName(AlgorithmRegistry().Make(entry.algorithm)->family()));
    std::vector<IterationRecord> records;
    const int64_t bits = 1000 * static_cast<int64_t>(e + 1);
    for (int k = 0; k <= 30; ++k) {
      IterationRecord r;
      r.algorithm = entry.label;
      r.iteration = k * 10;
      r.sim_time_s = time_scale * (e + 1) * k;
      r.loss = 0.1 + std::pow(10.0, 2 - k / (4.0 + e));
      r.dist_to_opt_sq = std::pow(10.0, 1 - k / (5.0 + e));
      r.test_accuracy = 1 - 0.9 * std::pow(10.0, -k / 20.0);
      if (family == "decentralized") r.consensus_dist = std::pow(10.0, -k / 6.0);
      r.bits_up = bits;
      r.cum_bits = bits * k;
      records.push_back(r);
    }
    RunSummary s;
    s.name = entry.label;
    s.algorithm = entry.algorithm.name;
    s.family = family;
    s.iterations = 300;
    s.final_loss = records.back().loss;
    s.bits_up = s.total_bits = bits * 30;
    s.mean_iter_time_s = time_scale * (e + 1) / 10;
    s.mean_compute_time_s = time_scale / 20;
    s.extra["optimal_loss"] = 0.1;
    run.records.push_back(std::move(records));
    run.summaries.push_back(std::move(s));
  }
  // Each family's baseline, as the runner sets it: its first entry registered as a baseline.
  for (RunSummary& s : run.summaries) {
    for (size_t e = 0; e < scenario.algorithms.size() && s.baseline.empty(); ++e) {
      const std::unique_ptr<Algorithm> a =
          AlgorithmRegistry().Make(scenario.algorithms[e].algorithm);
      if (a->info().baseline && FamilyName(a->family()) == s.family) {
        s.baseline = scenario.algorithms[e].label;
      }
    }
  }
  return run;
}

struct Item {
  std::string title, color;
  int dash = 0, point = 0;
};

std::vector<Item> MarkedItems(const std::string& script) {
  static const std::regex item(
      "pointtype (\\d+) [^\\n]*? dashtype (\\d+) linecolor rgb '(#[0-9a-f]{6})' title '([^\\n]*)' "
      "noenhanced");
  std::vector<Item> items;
  for (auto it = std::sregex_iterator(script.begin(), script.end(), item);
       it != std::sregex_iterator(); ++it) {
    items.push_back({(*it)[4], (*it)[3], std::stoi((*it)[2]), std::stoi((*it)[1])});
  }
  return items;
}

// The texts of the SVG's <text> elements, tags removed ("10<tspan>-3</tspan>" -> "10-3").
std::vector<std::string> SvgTexts(const std::string& svg) {
  std::vector<std::string> texts;
  static const std::regex text("<text[^>]*>([\\s\\S]*?)</text>");
  static const std::regex tag("<[^>]*>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator();
       ++it) {
    texts.push_back(std::regex_replace(std::string((*it)[1]), tag, ""));
  }
  return texts;
}

// Checks every plot in `plots`: formats, styles, rendered tic labels.
void ExpectReviewerProof(const fs::path& plots, const std::string& origin) {
  int checked = 0;
  for (const auto& e : fs::directory_iterator(plots)) {
    if (e.path().extension() != ".gp") continue;
    const std::string name = e.path().stem().string();
    SCOPED_TRACE(origin + ": " + name);
    const std::string script = Read(e.path());
    for (const char axis : {'x', 'y'}) {
      if (script.find(fmt::format("set logscale {}", axis)) == std::string::npos) continue;
      const bool tens =
          script.find(fmt::format("set format {} '10^{{%L}}'", axis)) != std::string::npos;
      const bool si = script.find(fmt::format("set format {} '%.0s%c'", axis)) != std::string::npos;
      EXPECT_TRUE(tens || si) << "log " << axis << " axis without 10^n or SI tic labels";
    }
    const std::vector<Item> items = MarkedItems(script);
    for (size_t i = 0; i < items.size(); ++i) {
      for (size_t j = i + 1; j < items.size(); ++j) {
        EXPECT_NE(items[i].color, items[j].color) << items[i].title << " / " << items[j].title;
        EXPECT_NE(items[i].point, items[j].point) << items[i].title << " / " << items[j].title;
      }
    }
    // Fixed-point ("0.00001", "1000000") and computer exponent ("1e+06") tic labels.
    static const std::regex fixed_point(
        "^\\s*-?\\d+\\.\\d{4,}\\s*$|^\\s*-?\\d{7,}\\s*$|^\\s*-?[\\d.]+e[+-]?\\d+\\s*$");
    for (const std::string& text : SvgTexts(Read(plots / (name + ".svg")))) {
      EXPECT_FALSE(std::regex_search(text, fixed_point)) << "tic label \"" << text << "\"";
    }
    ++checked;
  }
  EXPECT_GE(checked, 2) << origin;
}

class FiguresAcceptanceTest : public test_files::TempDirTest {
 protected:
  void SetUp() override {
    if (FindProgram("gnuplot").empty()) GTEST_SKIP() << "gnuplot not installed";
    TempDirTest::SetUp();
  }
};

TEST_F(FiguresAcceptanceTest, EveryShippedScenarioAndSweepGivesReviewerProofFigures) {
  int scenarios = 0, sweeps = 0;
  for (const auto& e : fs::directory_iterator(fs::path(COMMSIM_SOURCE_DIR) / "scenarios")) {
    if (e.path().extension() != ".json") continue;
    const std::string file = e.path().string();
    const fs::path out = dir_ / e.path().stem();
    if (IsSweepFile(e.path())) {
      const Sweep sweep = LoadSweep(file);
      int calls = 0;
      const PointRunner runner = [&](const nlohmann::json& doc, const std::string&) {
        const Scenario scenario = ParseScenario(doc, file, sweep.base_dir);
        return SummaryCsv(SyntheticRun(scenario, std::pow(10.0, -(calls++ % 13) / 4.0)));
      };
      RunSweep(sweep, out.string(), {}, runner);
      ASSERT_TRUE(PlotSweepFolder(out.string()));
      ++sweeps;
    } else {
      const Scenario scenario = LoadScenario(file);
      const RunResult run = SyntheticRun(scenario, 0.01);
      fs::create_directories(out);
      WriteFileAtomic((out / "metrics.csv").string(), MetricsCsv(run));
      WriteFileAtomic((out / "summary.csv").string(), SummaryCsv(run));
      ASSERT_TRUE(PlotRunFolder(out.string()));
      ++scenarios;
    }
    ExpectReviewerProof(out / "plots", e.path().filename().string());
  }
  EXPECT_GE(scenarios, 5);
  EXPECT_GE(sweeps, 2);
}

}  // namespace
}  // namespace commsim
