// `commsim run` and `commsim validate`.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/output_folder.h"
#include "analysis/plot.h"
#include "analysis/progress.h"
#include "app/commands.h"
#include "app/home.h"
#include "base/error.h"
#include "scenarios/json_config.h"
#include "scenarios/reproductions.h"
#include "scenarios/runner.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_point.h"
#include "scenarios/table.h"
#include "scenarios/trace_file.h"
#include "scenarios/trajectory_reuse.h"

namespace commsim::app {
namespace {

// file: the scenario (run, validate; empty: the shipped quickstart) or the trace (retime).
struct RunArgs : RunFolderArgs {
  std::vector<std::string> sets;
  bool trace = false;  // run: write trace.txt
};

std::string ScenarioFile(const RunArgs& args) {
  if (!args.file.empty()) return args.file;
  return (std::filesystem::path(RequireHome("the quickstart scenario")) / "scenarios" /
          "quickstart.json")
      .string();
}

// What trace.txt keeps of the scenario: its document as given (not the resolved form, so a
// retime's --set acts as it does on the file, e.g. an entry's ring still inherits the star's
// link values) and the folder its relative paths resolve against.
struct TraceSource {
  nlohmann::json document;
  std::string base_dir;
};

// The scenario's notes on keys that do nothing in it, on stderr.
void PrintNotes(const Scenario& scenario) {
  for (const std::string& note : scenario.notes) fmt::print(stderr, "note: {}\n", note);
}

// A note for each traced entry whose replay did not end ok, so it was learned again in full.
void PrintRelearned(const std::string& file, const Scenario& scenario,
                    const TrajectoryStore& trajectories) {
  for (const TrajectoryStore::Relearned& r : trajectories.relearned()) {
    fmt::print(stderr,
               "note: {}: entry {} ({}): its trajectory did not replay ({}); it was learned "
               "again in full\n",
               file, r.entry, scenario.algorithms[r.entry].label, r.why);
  }
}

// Runs `scenario` (read from `file`) into `out` (default results/<name><suffix>) with progress
// lines, prints the comparison table; with `trace` set, also writes trace.txt.
void RunAndWrite(const Scenario& scenario, const std::string& file, const RunArgs& args,
                 const std::string& suffix, TrajectoryStore* trajectories,
                 const std::optional<TraceSource>& trace_source) {
  const std::string out = args.out.empty() ? "results/" + scenario.name + suffix : args.out;
  const std::string origin = args.out.empty() ? out : "--out " + out;
  // Refuse a path commsim does not own, or cannot write, before spending the run's time.
  CheckOutputWritable(out, OutputKind::kRun, origin);
  PrintNotes(scenario);
  RunOptions options;
  options.trajectories = trajectories;
  options.jobs = args.jobs > 0 ? args.jobs : DefaultJobs();
  options.threads = args.threads;
  const size_t entries = scenario.algorithms.size();
  Progress progress("run", "entries", stderr, Progress::ModeFor(stderr, args.quiet),
                    Progress::SteadyClock(), /*line_interval_s=*/10.0, /*tick_s=*/1.0);
  if (!args.quiet) {
    fmt::print(stderr, "commsim: running {} ({} entries, {} iterations, jobs {}{})\n", file,
               entries, scenario.iterations, options.jobs,
               options.threads > 1 ? fmt::format(", threads {}", options.threads) : "");
  }
  const int64_t every = std::max<int64_t>(1, scenario.iterations / 200);
  const double iterations = static_cast<double>(std::max<int64_t>(1, scenario.iterations));
  options.on_iteration = [&](size_t, int64_t done) {
    if (done % every == 0) progress.SetPartial(static_cast<double>(done) / iterations);
  };
  options.on_events = [&](size_t entry, int64_t events, double sim_s) {
    progress.SetDetail(EventsDetail(scenario.algorithms[entry].label, events, sim_s));
  };
  size_t done = 0;
  options.on_entry_done = [&](size_t, const RunSummary& s) {
    progress.Note(fmt::format("  [{}/{}] {} finished ({})", ++done, entries, s.name, s.status));
    progress.Advance();
  };
  progress.Start(entries);
  const RunResult result = RunScenario(scenario, options);
  progress.Finish();
  if (trajectories != nullptr) PrintRelearned(file, scenario, *trajectories);
  std::string trace;
  if (trace_source) {
    std::vector<std::string> labels;
    for (const AlgorithmEntry& e : scenario.algorithms) labels.push_back(e.label);
    trace = TraceText(trace_source->document, trace_source->base_dir, labels, *trajectories);
  }
  WriteRunFolder(scenario, result, out, origin, trace);
  fmt::print("{}", ComparisonTable(result));
  fmt::print(
      "results: {}/ (metrics.csv, summary.csv, summary.json, scenario.resolved.json, "
      "run.json{})\n",
      out, trace.empty() ? "" : ", trace.txt");
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

void DoRun(const RunArgs& args) {
  const std::string file = ScenarioFile(args);
  const Scenario scenario = LoadScenario(file, args.sets);
  if (!args.trace) return RunAndWrite(scenario, file, args, "", nullptr, std::nullopt);
  TrajectoryStore trajectories;  // fresh: every entry that can be re-timed records
  const std::filesystem::path folder = std::filesystem::path(file).parent_path();
  const TraceSource source{
      LoadScenarioDocument(file, args.sets),
      std::filesystem::absolute(folder.empty() ? "." : folder).lexically_normal().string()};
  RunAndWrite(scenario, file, args, "", &trajectories, source);
}

// `commsim retime TRACE`: the trace's scenario with timing keys changed by --set, every entry
// that has a trajectory re-timed from it, the others run in full.
void DoRetime(const RunArgs& args) {
  TraceFile trace = ReadTraceFile(args.file);
  for (const std::string& set : args.sets) {
    const std::string pointer = set.substr(0, set.find('='));
    if (!IsTimingPointer(pointer)) {
      throw UserError(fmt::format(
          "--set {}: retime changes timing keys only (links, network model and protocol, "
          "header_bits, compute device and speed, codec; docs/scenarios.md), and {} is not one",
          set, pointer));
    }
    ApplySet(trace.scenario, set);
  }
  const Scenario scenario = ParseScenario(trace.scenario, args.file, trace.base_dir);
  TrajectoryStore trajectories;
  for (auto& [index, entry] : trace.entries) {
    if (index >= scenario.algorithms.size() || scenario.algorithms[index].label != entry.label) {
      throw UserError(fmt::format("{}: entry {} ({}) is not an entry of the trace's scenario",
                                  args.file, index, entry.label));
    }
    trajectories.Publish(index, std::make_shared<const Trajectory>(std::move(entry.trajectory)));
  }
  if (!args.quiet) {
    fmt::print(stderr,
               "commsim: retime: {} of {} entries have a trajectory; the others run in "
               "full\n",
               trace.entries.size(), scenario.algorithms.size());
  }
  RunAndWrite(scenario, args.file, args, "-retimed", &trajectories, std::nullopt);
}

void ValidateSweepFile(const std::string& file, const std::vector<std::string>& sets) {
  if (!sets.empty()) throw UserError(fmt::format("{}: --set applies to scenario files", file));
  const Sweep sweep = LoadSweep(file);
  for (const std::string& note : ValidateSweepPoints(sweep)) fmt::print(stderr, "note: {}\n", note);
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

// A reproductions manifest (scenarios/reproductions.h): the manifest and every scenario it names.
void ValidateReproductions(const std::string& file, const std::vector<std::string>& sets) {
  if (!sets.empty()) throw UserError(fmt::format("{}: --set applies to scenario files", file));
  const std::vector<Reproduction> all = LoadReproductions(file);
  size_t claims = 0;
  for (const Reproduction& r : all) {
    CheckScenario(LoadScenario(r.scenario));
    claims += r.claims.size();
  }
  fmt::print("{}: ok ({} reproductions, {} claims)\n", file, all.size(), claims);
}

void DoValidate(const RunArgs& args) {
  const std::string file = ScenarioFile(args);
  const nlohmann::json doc = LoadJsonFile(file);
  if (doc.is_object() && doc.contains("axes")) return ValidateSweepFile(file, args.sets);
  if (doc.is_object() && doc.contains("reproductions"))
    return ValidateReproductions(file, args.sets);
  const Scenario scenario = LoadScenario(file, args.sets);
  CheckScenario(scenario);
  PrintNotes(scenario);
  fmt::print("{}: ok ({} algorithm entries, {} workers, {} iterations)\n", file,
             scenario.algorithms.size(), scenario.workers, scenario.iterations);
}

}  // namespace

CLI::Option* AddThreadsOption(CLI::App& cmd, int& threads) {
  const CLI::Validator one_to_256(
      [](std::string& value) -> std::string {
        size_t used = 0;
        int n = 0;
        try {
          n = std::stoi(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == value.size() && !value.empty() && n >= 1 && n <= 256) return "";
        return "expected a whole number of threads from 1 to 256, got '" + value + "'";
      },
      "INT in [1, 256]");
  return cmd
      .add_option("--threads", threads,
                  "threads inside each entry: a parameter-server entry computes its workers' "
                  "gradients and encodes in parallel (default 1; results identical; with --jobs "
                  "J up to J x N threads)")
      ->check(one_to_256);
}

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
  AddThreadsOption(*cmd, args->threads);
  AddOutputFlags(*cmd, *args);
  cmd->add_flag("--trace", args->trace,
                "also write trace.txt: every entry's messages and learning, for `commsim retime`");
  cmd->callback([args] { DoRun(*args); });

  auto rargs = std::make_shared<RunArgs>();
  auto* retime = app.add_subcommand(
      "retime",
      "Re-time a run's trace.txt (run --trace) on another network, without redoing "
      "the learning; writes a run folder");
  retime->add_option("TRACE", rargs->file, "trace.txt of a run folder")->required();
  retime->add_option("--out", rargs->out, "output folder (default results/<name>-retimed/)");
  retime->add_option("--set", rargs->sets,
                     "change a timing key: /json/pointer=value (repeatable), e.g. "
                     "/network/topology/worker_bandwidth=100Mbps");
  retime
      ->add_option("--jobs,-j", rargs->jobs,
                   "entries simulated in parallel (default 0: one "
                   "per core)")
      ->check(CLI::Range(0, 256));
  AddOutputFlags(*retime, *rargs);
  retime->callback([rargs] { DoRetime(*rargs); });

  auto vargs = std::make_shared<RunArgs>();
  auto* validate =
      app.add_subcommand("validate", "Check a scenario or sweep file without running it");
  validate->add_option("file", vargs->file, "scenario or sweep JSON")->required();
  validate->add_option("--set", vargs->sets, "override a value: /json/pointer=value");
  validate->callback([vargs] { DoValidate(*vargs); });
}

}  // namespace commsim::app
