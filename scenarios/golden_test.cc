// Golden outputs: every shipped scenario (scenarios/*.json with "algorithms") and every shipped
// `commsim net` spec (scenarios/net/*.json), run at reduced size, must produce exactly the stored
// outputs in scenarios/golden/. A refactor changes no byte; a deliberate behaviour change
// regenerates the goldens and says why in its commit:
//
//   COMMSIM_UPDATE_GOLDEN=1 build/scenarios/scenarios_tests --gtest_filter='GoldenTest.*'
//
// Reduced size: at most kIterations iterations, every iteration recorded, and a synthetic_quadratic
// of at most kDim parameters (a layer profile is replaced by its FLOPs per sample), so the whole
// set runs in seconds. Stored per scenario: metrics.csv, summary.csv and summary.json (run.json
// holds wall times and scenario.resolved.json absolute paths, so neither is compared).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/writers.h"
#include "models/layer_profile.h"
#include "scenarios/json_config.h"
#include "scenarios/net_run.h"
#include "scenarios/net_spec.h"
#include "scenarios/runner.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kIterations = 12;
constexpr int64_t kDim = 4096;

const fs::path kScenarios = fs::path(COMMSIM_SOURCE_DIR) / "scenarios";
const fs::path kGolden = kScenarios / "golden";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Updating() {
  const char* env = std::getenv("COMMSIM_UPDATE_GOLDEN");
  return env != nullptr && std::string(env) == "1";
}

// Compares `actual` with the golden file (or rewrites it when updating), reporting the first line
// that differs.
void ExpectGolden(const fs::path& golden, const std::string& actual) {
  if (Updating()) {
    fs::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " missing; run with COMMSIM_UPDATE_GOLDEN=1";
  const std::string expected = ReadText(golden);
  if (expected == actual) return;
  std::istringstream e(expected), a(actual);
  std::string le, la;
  for (int line = 1;; ++line) {
    const bool more_e = static_cast<bool>(std::getline(e, le));
    const bool more_a = static_cast<bool>(std::getline(a, la));
    if (!more_e && !more_a) break;
    if (le != la || more_e != more_a) {
      ADD_FAILURE() << golden << ":" << line << " differs\n  golden: " << le
                    << "\n  actual: " << la;
      return;
    }
  }
  ADD_FAILURE() << golden << " differs (line endings?)";
}

std::vector<fs::path> JsonFiles(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The overrides that shrink a shipped scenario.
std::vector<std::string> Reductions(const nlohmann::json& doc) {
  std::vector<std::string> sets;
  const int64_t iterations = doc.value("iterations", int64_t{100});
  sets.push_back("/iterations=" + std::to_string(std::min(iterations, kIterations)));
  sets.push_back("/metrics_every=1");
  const nlohmann::json model = doc.value("model", nlohmann::json::object());
  if (model.is_object() && model.value("name", "") == "synthetic_quadratic") {
    // A profile fixes d: drop it and keep its FLOPs, so the reduced run is timed the same.
    const LayerProfile* profile = FindLayerProfile(model.value("profile", ""));
    if (profile != nullptr) {
      sets.push_back("/model/profile=");
      sets.push_back(
          fmt::format("/model/flops_per_sample={}",
                      profile->ForwardFlopsPerSample() + profile->BackwardFlopsPerSample()));
    }
    const int64_t dim =
        profile != nullptr ? profile->TotalParams() : model.value("dim", int64_t{0});
    if (dim > kDim) sets.push_back("/model/dim=" + std::to_string(kDim));
  }
  return sets;
}

// Runs every shipped scenario whose data set is (or is not) synthetic; returns how many ran.
int RunShippedScenarios(bool synthetic) {
  int scenarios = 0;
  for (const fs::path& file : JsonFiles(kScenarios)) {
    const nlohmann::json doc = LoadJsonFile(file.string());
    if (!doc.is_object() || !doc.contains("algorithms")) continue;  // a sweep
    const nlohmann::json model = doc.value("model", nlohmann::json::object());
    const nlohmann::json data = doc.value("data", nlohmann::json::object());
    const bool is_synthetic = !model.is_object() || !data.is_object() ||
                              model.value("name", "") == "synthetic_quadratic" ||
                              !data.contains("name") ||
                              data.value("name", "").starts_with("synthetic");
    if (is_synthetic != synthetic) continue;
    SCOPED_TRACE(file.string());
    const Scenario s = LoadScenario(file.string(), Reductions(doc));
    RunOptions options;
    options.jobs = 2;
    const RunResult r = RunScenario(s, options);
    const fs::path dir = kGolden / file.stem();
    ExpectGolden(dir / "metrics.csv", MetricsCsv(r));
    ExpectGolden(dir / "summary.csv", SummaryCsv(r));
    ExpectGolden(dir / "summary.json", SummaryJson(r).dump(2) + "\n");
    ++scenarios;
  }
  return scenarios;
}

TEST(GoldenTest, ShippedSyntheticScenariosAtReducedSizeGiveTheStoredOutputs) {
  EXPECT_GE(RunShippedScenarios(/*synthetic=*/true), 3);
}

// MNIST and the other real data sets: a few seconds (label slow).
TEST(GoldenTest, ShippedDataSetScenariosAtReducedSizeGiveTheStoredOutputs) {
  EXPECT_GE(RunShippedScenarios(/*synthetic=*/false), 3);
}

TEST(GoldenTest, EveryShippedNetSpecGivesTheStoredReport) {
  int specs = 0;
  for (const fs::path& file : JsonFiles(kScenarios / "net")) {
    SCOPED_TRACE(file.string());
    const NetSpec spec = LoadNetSpec(file.string());
    ExpectGolden(kGolden / "net" / (file.stem().string() + ".txt"),
                 FormatNetReport(spec, RunNetSpec(spec), /*all_links=*/true));
    ++specs;
  }
  EXPECT_GE(specs, 4);
}

}  // namespace
}  // namespace commsim
