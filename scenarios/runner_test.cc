#include "scenarios/runner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "algorithms/registry.h"
#include "analysis/csv.h"
#include "base/error_test_util.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// An algorithm whose run throws, as a simulation limit would.
class Throwing final : public Algorithm {
 public:
  Throwing()
      : Algorithm(AlgorithmInfo{
            .name = "memsgd", .color = "", .help = "", .family = Family::kParameterServer}) {}
  void Run(const RunSetup&, std::vector<IterationRecord>*, RunSummary*) const override {
    throw std::runtime_error("simulated time overflows");
  }
};

// An algorithm that only records what the runner gave it.
struct Seen {
  const LayerProfile* layers = nullptr;
  double compute_s = 0;
};
class Recording final : public Algorithm {
 public:
  explicit Recording(Seen* seen)
      : Algorithm(AlgorithmInfo{
            .name = "sgd", .color = "", .help = "", .family = Family::kParameterServer}),
        seen_(seen) {}
  void Run(const RunSetup& setup, std::vector<IterationRecord>*, RunSummary*) const override {
    seen_->layers = setup.layers;
    seen_->compute_s = setup.compute->MeanSeconds(0, setup.batch);
  }

 private:
  Seen* seen_;
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

// Every family's driver reports its simulated events every events_every events (the progress of
// iterations with millions of messages): at 50, 100, ... events, at non-decreasing simulated times.
TEST(RunnerTest, EveryFamilyReportsItsEventsEveryNEvents) {
  const Scenario s = ParseScenario(nlohmann::json::parse(R"({
      "workers": 4, "iterations": 6,
      "data": {"name": "synthetic_regression", "samples": 200, "features": 20},
      "network": {"model": "packet", "mtu": "1000bit"},
      "algorithms": [{"name": "sgd"}, {"name": "dpsgd", "topology": "ring"},
                     {"name": "allreduce_sgd"}]})"),
                                   "s.json", "");
  std::vector<std::vector<std::pair<int64_t, double>>> seen(3);
  RunOptions options;
  options.events_every = 50;
  options.on_events = [&seen](size_t entry, int64_t events, double sim_s) {
    seen[entry].emplace_back(events, sim_s);
  };
  const RunResult r = RunScenario(s, options);
  for (size_t e = 0; e < 3; ++e) {
    ASSERT_EQ(r.summaries[e].status, "ok") << r.summaries[e].message;
    ASSERT_GE(seen[e].size(), 2u) << e;
    for (size_t k = 0; k < seen[e].size(); ++k) {
      EXPECT_EQ(seen[e][k].first, 50 * static_cast<int64_t>(k + 1)) << e;
      if (k > 0) EXPECT_GE(seen[e][k].second, seen[e][k - 1].second) << e;
    }
  }
}

// The newcomer's comparison: PS dore, qsgd and memsgd without PS sgd, beside ring all-reduce and a
// compressed all-gather. Every entry is compared with a baseline: the collective ones with
// allreduce_sgd (their family's), the PS ones with the same common baseline; bits per iteration
// against it.
TEST(RunnerTest, EntriesWithoutTheirFamilysBaselineUseTheCommonOne) {
  const Scenario s = ParseScenario(nlohmann::json::parse(R"({
      "workers": 4, "iterations": 3,
      "data": {"name": "synthetic_regression", "samples": 200, "features": 20},
      "algorithms": ["dore", "qsgd", "memsgd", {"name": "allreduce_sgd", "label": "ring"},
                     "allgather_compressed"]})"),
                                   "s.json", "");
  const RunResult r = RunScenario(s, RunOptions{});
  const RunSummary& ring = r.summaries[3];
  ASSERT_EQ(ring.name, "ring");
  const double ring_per_iter = static_cast<double>(ring.total_bits) / ring.iterations;
  for (const RunSummary& e : r.summaries) {
    ASSERT_EQ(e.status, "ok") << e.name << ": " << e.message;
    EXPECT_EQ(e.baseline, "ring") << e.name;
    ASSERT_TRUE(e.bits_fraction_of_baseline.has_value()) << e.name;
    EXPECT_DOUBLE_EQ(*e.bits_fraction_of_baseline,
                     static_cast<double>(e.total_bits) / e.iterations / ring_per_iter)
        << e.name;
  }
  // No baseline-registered entry at all: the first entry that sent bits.
  const Scenario none = ParseScenario(nlohmann::json::parse(R"({
      "workers": 4, "iterations": 2,
      "data": {"name": "synthetic_regression", "samples": 200, "features": 20},
      "algorithms": ["dore", "qsgd"]})"),
                                      "s.json", "");
  const RunResult n = RunScenario(none, RunOptions{});
  EXPECT_EQ(n.summaries[0].baseline, "dore");
  EXPECT_EQ(n.summaries[1].baseline, "dore");
  EXPECT_DOUBLE_EQ(*n.summaries[0].bits_fraction_of_baseline, 1.0);
}

// The scenario's `baseline` names the entry every entry is compared with, across families, in
// place of each family's own.
TEST(RunnerTest, TheScenariosBaselineKeyIsEveryEntrysBaseline) {
  const Scenario s = ParseScenario(nlohmann::json::parse(R"({
      "workers": 4, "iterations": 3, "baseline": "q",
      "data": {"name": "synthetic_regression", "samples": 200, "features": 20},
      "algorithms": ["sgd", {"name": "qsgd", "label": "q"}, "allreduce_sgd"]})"),
                                   "s.json", "");
  const RunResult r = RunScenario(s, RunOptions{});
  const RunSummary& q = r.summaries[1];
  const double q_per_iter = static_cast<double>(q.total_bits) / q.iterations;
  for (const RunSummary& e : r.summaries) {
    EXPECT_EQ(e.baseline, "q") << e.name;
    ASSERT_TRUE(e.bits_fraction_of_baseline.has_value()) << e.name;
    EXPECT_DOUBLE_EQ(*e.bits_fraction_of_baseline,
                     static_cast<double>(e.total_bits) / e.iterations / q_per_iter)
        << e.name;
  }
  EXPECT_GT(*r.summaries[0].bits_fraction_of_baseline, 1.0);  // sgd sends more than qsgd
}

TEST(RunnerTest, ABaselineThatNamesNoEntryIsAnErrorListingTheLabels) {
  const std::string error = test_errors::ErrorOf([] {
    ParseScenario(nlohmann::json::parse(R"({"baseline": "sgdd",
        "algorithms": ["sgd", {"name": "qsgd", "label": "q"}]})"),
                  "s.json", "");
  });
  EXPECT_NE(error.find("s.json: /baseline: expected the label of an entry (\"sgd\", \"q\"), "
                       "got \"sgdd\""),
            std::string::npos)
      << error;
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

TEST(RunnerTest, TheModelsLayerProfileReachesTheAlgorithmAndTimesItsCompute) {
  const Scenario s = ParseScenario(nlohmann::json::parse(R"({
      "workers": 2, "iterations": 1, "batch": 10,
      "model": {"name": "synthetic_quadratic", "profile": "lenet5"},
      "compute": {"mode": "flops", "device": "custom", "flops_per_s": 1e9, "efficiency": 0.5},
      "algorithms": [{"name": "sgd"}]})"),
                                   "s.json", "");
  Seen seen;
  RunOptions options;
  options.make_algorithm = [&seen](const ComponentSpec&) -> std::unique_ptr<Algorithm> {
    return std::make_unique<Recording>(&seen);
  };
  RunScenario(s, options);
  EXPECT_EQ(seen.layers, FindLayerProfile("lenet5"));
  // LeNet-5 on MNIST: 6 x 416,520 multiply-adds per sample; 10 samples at 0.5 x 1 GFLOP/s.
  EXPECT_DOUBLE_EQ(seen.compute_s, 6.0 * 416'520 * 10 / 0.5e9);
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
  const std::string error = test_errors::ErrorOf([&] { RunScenario(s, RunOptions{}); });
  EXPECT_NE(error.find("s.json: /algorithms/1: \"dpsgd\" is decentralized"), std::string::npos)
      << error;
}

// A parameter-server entry on a ring, with no decentralized entry in the scenario: the advice
// names only what exists (this entry, the scenario's network).
TEST(RunnerTest, APsEntryOnARingIsToldToBringAServer) {
  const Scenario s = ParseScenario(
      nlohmann::json::parse(
          R"({"workers": 4, "network": {"topology": "ring"}, "algorithms": ["sgd"]})"),
      "s.json", "");
  const std::string error = test_errors::ErrorOf([&] { CheckScenario(s); });
  EXPECT_NE(error.find("s.json: /algorithms/0: \"sgd\" is a parameter-server algorithm"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("or this entry its own \"topology\" with a server"), std::string::npos)
      << error;
  EXPECT_EQ(error.find("decentralized"), std::string::npos) << error;
}

}  // namespace
}  // namespace commsim
