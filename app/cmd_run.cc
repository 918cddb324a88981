// `commsim run` and `commsim validate`.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "analysis/output_folder.h"
#include "analysis/plot.h"
#include "app/commands.h"
#include "scenarios/runner.h"
#include "scenarios/table.h"

namespace commsim::app {
namespace {

struct RunArgs {
  std::string file = "scenarios/quickstart.json";
  std::string out;
  std::vector<std::string> sets;
  int jobs = 1;
  bool no_plots = false;
  bool quiet = false;
  FigureSize size = FigureSize::kPage;
};

void DoRun(const RunArgs& args) {
  const Scenario scenario = LoadScenario(args.file, args.sets);
  const std::string out = args.out.empty() ? "results/" + scenario.name : args.out;
  const std::string origin = args.out.empty() ? out : "--out " + out;
  // Refuse a path commsim does not own, or cannot write, before spending the run's time.
  CheckOutputWritable(out, OutputKind::kRun, origin);
  const auto start = std::chrono::steady_clock::now();
  RunOptions options;
  options.jobs = args.jobs;
  size_t done = 0;
  if (!args.quiet) {
    fmt::print(stderr, "commsim: running {} ({} entries, {} iterations, jobs {})\n", args.file,
               scenario.algorithms.size(), scenario.iterations, args.jobs);
    options.on_entry_done = [&](size_t, const RunSummary& s) {
      ++done;
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(stderr, "  [{}/{}] {} finished ({}, {:.1f} s elapsed)\n", done,
                 scenario.algorithms.size(), s.name, s.status, elapsed);
    };
  }
  const RunResult result = RunScenario(scenario, options);
  WriteRunFolder(scenario, result, out, origin);
  fmt::print("{}", ComparisonTable(result));
  fmt::print("results: {}/ (metrics.csv, summary.csv, summary.json, scenario.resolved.json)\n",
             out);
  if (!args.no_plots && PlotRunFolder(out, {.size = args.size})) {
    fmt::print("plots: {}/plots/\n", out);
  }
}

}  // namespace

void AddRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Run a scenario: every algorithm entry on the simulated network");
  cmd->add_option("file", args->file, "scenario JSON (default scenarios/quickstart.json)");
  cmd->add_option("--out", args->out, "output folder (default results/<scenario name>/)");
  cmd->add_option("--set", args->sets, "override a value: /json/pointer=value (repeatable)");
  cmd->add_option("--jobs,-j", args->jobs, "entries simulated in parallel (results identical)")
      ->check(CLI::Range(1, 256));
  cmd->add_flag("--no-plots", args->no_plots, "do not render plots");
  AddFigureSizeOption(*cmd, args->size);
  cmd->add_flag("--quiet,-q", args->quiet, "no progress lines");
  cmd->callback([args] { DoRun(*args); });

  auto vargs = std::make_shared<RunArgs>();
  auto* validate = app.add_subcommand("validate", "Check a scenario file without running it");
  validate->add_option("file", vargs->file, "scenario JSON")->required();
  validate->add_option("--set", vargs->sets, "override a value: /json/pointer=value");
  validate->callback([vargs] {
    const Scenario scenario = LoadScenario(vargs->file, vargs->sets);
    CheckScenario(scenario);
    fmt::print("{}: ok ({} algorithm entries, {} workers, {} iterations)\n", vargs->file,
               scenario.algorithms.size(), scenario.workers, scenario.iterations);
  });
}

}  // namespace commsim::app
