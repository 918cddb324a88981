#include "scenarios/runner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "algorithms/registry.h"
#include "analysis/csv.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// An algorithm whose run throws, as a simulation limit would.
class Throwing final : public Algorithm {
 public:
  Throwing() : Algorithm(AlgorithmInfo{.name = "memsgd", .family = Family::kParameterServer}) {}
  void Run(const RunSetup&, std::vector<IterationRecord>*, RunSummary*) const override {
    throw std::runtime_error("simulated time overflows");
  }
};

Scenario ThreeEntries() {
  return ParseScenario(nlohmann::json::parse(R"({
      "workers": 4, "iterations": 8, "metrics_every": 2,
      "data": {"name": "synthetic_regression", "samples": 200, "features": 20},
      "algorithms": [{"name": "sgd"}, {"name": "memsgd", "label": "boom"}, {"name": "qsgd"}]})"),
                       "s.json", "");
}

RunOptions WithBoom(int jobs) {
  RunOptions options;
  options.jobs = jobs;
  options.make_algorithm = [](const ComponentSpec& spec) -> std::unique_ptr<Algorithm> {
    if (spec.name == "memsgd") return std::make_unique<Throwing>();
    return AlgorithmRegistry().Make(spec);
  };
  return options;
}

TEST(RunnerTest, AnEntryThatThrowsIsAnErrorAndTheOthersComplete) {
  for (int jobs : {1, 3}) {
    const RunResult r = RunScenario(ThreeEntries(), WithBoom(jobs));
    ASSERT_EQ(r.summaries.size(), 3u);
    EXPECT_EQ(r.summaries[1].name, "boom");
    EXPECT_EQ(r.summaries[1].algorithm, "memsgd");
    EXPECT_EQ(r.summaries[1].status, kStatusError);
    EXPECT_EQ(r.summaries[1].message, "simulated time overflows");
    EXPECT_TRUE(r.records[1].empty());
    for (size_t i : {0u, 2u}) {
      EXPECT_EQ(r.summaries[i].status, kStatusOk) << jobs;
      EXPECT_EQ(r.summaries[i].iterations, 8) << jobs;
      EXPECT_EQ(r.records[i].size(), 5u) << jobs;  // iterations 0, 2, 4, 6, 8
    }
    EXPECT_TRUE(AnyEntryFailed(r));
  }
}

TEST(RunnerTest, TheRunFolderIsWrittenWithTheErrorAndItsMessage) {
  const Scenario s = ThreeEntries();
  const RunResult r = RunScenario(s, WithBoom(1));
  const fs::path dir = fs::path(::testing::TempDir()) / "commsim_runner_error";
  fs::remove_all(dir);
  WriteRunFolder(s, r, dir.string());
  const CsvTable t = ReadCsvFile((dir / "summary.csv").string());
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.Cell(1, "status"), "error");
  EXPECT_EQ(t.Cell(1, "message"), "simulated time overflows");
  EXPECT_EQ(t.Cell(1, "final_loss"), "nan");
  // With one entry in error, two remain for the default time-to-target rule.
  EXPECT_EQ(t.Cell(0, "target_metric"), "loss");
  const CsvTable m = ReadCsvFile((dir / "metrics.csv").string());
  for (size_t row = 0; row < m.size(); ++row) EXPECT_NE(m.Cell(row, "algorithm"), "boom");
  EXPECT_TRUE(fs::exists(dir / "run.json"));
}

TEST(RunnerTest, BadInputStillFailsBeforeAnythingRuns) {
  // A decentralized entry on the scenario's star: a UserError from CheckScenario, not a status.
  const Scenario s = ParseScenario(
      nlohmann::json::parse(R"({"workers": 4, "algorithms": [{"name": "sgd"}, "dpsgd"]})"),
      "s.json", "");
  try {
    RunScenario(s, RunOptions{});
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("s.json: /algorithms/1: \"dpsgd\" is decentralized"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace commsim
