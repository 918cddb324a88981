// `commsim run` and `commsim validate`.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/output_folder.h"
#include "analysis/plot.h"
#include "analysis/progress.h"
#include "app/commands.h"
#include "app/home.h"
#include "scenarios/json_config.h"
#include "scenarios/runner.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_point.h"
#include "scenarios/table.h"
#include "sim/error.h"

namespace commsim::app {
namespace {

struct RunArgs {
  std::string file;  // empty: the shipped quickstart scenario
  std::string out;
  std::vector<std::string> sets;
  int jobs = 0;
  bool no_plots = false;
  bool quiet = false;
  FigureSize size = FigureSize::kPage;
};

std::string ScenarioFile(const RunArgs& args) {
  if (!args.file.empty()) return args.file;
  return (std::filesystem::path(RequireHome("the quickstart scenario")) / "scenarios" /
          "quickstart.json")
      .string();
}

void DoRun(const RunArgs& args) {
  const std::string file = ScenarioFile(args);
  const Scenario scenario = LoadScenario(file, args.sets);
  const std::string out = args.out.empty() ? "results/" + scenario.name : args.out;
  const std::string origin = args.out.empty() ? out : "--out " + out;
  // Refuse a path commsim does not own, or cannot write, before spending the run's time.
  CheckOutputWritable(out, OutputKind::kRun, origin);
  RunOptions options;
  options.jobs = args.jobs > 0 ? args.jobs : DefaultJobs();
  const size_t entries = scenario.algorithms.size();
  Progress progress("run", "entries", stderr, Progress::ModeFor(stderr, args.quiet),
                    Progress::SteadyClock(), /*line_interval_s=*/10.0, /*tick_s=*/1.0);
  if (!args.quiet) {
    fmt::print(stderr, "commsim: running {} ({} entries, {} iterations, jobs {})\n", file, entries,
               scenario.iterations, options.jobs);
  }
  const int64_t every = std::max<int64_t>(1, scenario.iterations / 200);
  const double iterations = static_cast<double>(std::max<int64_t>(1, scenario.iterations));
  options.on_iteration = [&](size_t, int64_t done) {
    if (done % every == 0) progress.SetPartial(static_cast<double>(done) / iterations);
  };
  size_t done = 0;
  options.on_entry_done = [&](size_t, const RunSummary& s) {
    progress.Note(fmt::format("  [{}/{}] {} finished ({})", ++done, entries, s.name, s.status));
    progress.Advance();
  };
  progress.Start(entries);
  const RunResult result = RunScenario(scenario, options);
  progress.Finish();
  WriteRunFolder(scenario, result, out, origin);
  fmt::print("{}", ComparisonTable(result));
  fmt::print(
      "results: {}/ (metrics.csv, summary.csv, summary.json, scenario.resolved.json, "
      "run.json)\n",
      out);
  if (!args.no_plots && PlotRunFolder(out, {.size = args.size})) {
    fmt::print("plots: {}/plots/\n", out);
  }
  if (AnyEntryFailed(result)) {
    for (const RunSummary& s : result.summaries) {
      if (s.status == kStatusError) fmt::print(stderr, "error: {}: {}\n", s.name, s.message);
    }
    throw ExitCode{kExitEntryError};
  }
}

void ValidateSweepFile(const std::string& file, const std::vector<std::string>& sets) {
  if (!sets.empty()) throw UserError(fmt::format("{}: --set applies to scenario files", file));
  const Sweep sweep = LoadSweep(file);
  ValidateSweepPoints(sweep);
  for (size_t k = 0; k < sweep.size(); ++k) {
    try {
      CheckScenario(ParseScenario(sweep.PointScenario(k), "scenario", sweep.base_dir));
    } catch (const UserError& e) {
      throw UserError(
          fmt::format("{}: point {} ({}): {}", file, k, sweep.DescribePoint(k), e.what()));
    }
  }
  fmt::print("{}: ok (sweep of {} points)\n", file, sweep.size());
}

void DoValidate(const RunArgs& args) {
  const std::string file = ScenarioFile(args);
  const nlohmann::json doc = LoadJsonFile(file);
  if (doc.is_object() && doc.contains("axes")) return ValidateSweepFile(file, args.sets);
  const Scenario scenario = LoadScenario(file, args.sets);
  CheckScenario(scenario);
  fmt::print("{}: ok ({} algorithm entries, {} workers, {} iterations)\n", file,
             scenario.algorithms.size(), scenario.workers, scenario.iterations);
}

}  // namespace

void AddRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd =
      app.add_subcommand("run", "Run a scenario: every algorithm entry on the simulated network");
  cmd->add_option("file", args->file,
                  "scenario JSON (default: the shipped scenarios/quickstart.json)");
  cmd->add_option("--out", args->out, "output folder (default results/<scenario name>/)");
  cmd->add_option("--set", args->sets, "override a value: /json/pointer=value (repeatable)");
  cmd->add_option("--jobs,-j", args->jobs,
                  "entries simulated in parallel (default 0: one per core; results identical)")
      ->check(CLI::Range(0, 256));
  cmd->add_flag("--no-plots", args->no_plots, "do not render plots");
  AddFigureSizeOption(*cmd, args->size);
  cmd->add_flag("--quiet,-q", args->quiet, "no progress lines");
  cmd->callback([args] { DoRun(*args); });

  auto vargs = std::make_shared<RunArgs>();
  auto* validate =
      app.add_subcommand("validate", "Check a scenario or sweep file without running it");
  validate->add_option("file", vargs->file, "scenario or sweep JSON")->required();
  validate->add_option("--set", vargs->sets, "override a value: /json/pointer=value");
  validate->callback([vargs] { DoValidate(*vargs); });
}

}  // namespace commsim::app
