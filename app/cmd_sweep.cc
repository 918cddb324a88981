// `commsim sweep FILE` and `commsim sweep-point FILE --point K --out DIR`.
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "analysis/csv.h"
#include "analysis/plot.h"
#include "analysis/progress.h"
#include "analysis/report.h"
#include "analysis/version.h"
#include "app/commands.h"
#include "app/mpi_sweep.h"
#include "base/error.h"
#include "mpi/mpi_world.h"
#include "records/records.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_point.h"
#include "scenarios/sweep_runner.h"
#include "scenarios/trajectory_reuse.h"

namespace commsim::app {
namespace {

struct SweepArgs : RunFolderArgs {
  bool keep_runs = false;
  bool restart = false;
  bool count = false;
  bool no_reuse = false;
  int64_t point = 0;  // signed, so `--point -1` is refused as given
};

// Exit code 3 when a point's entry ended with status "error" (the sweep itself completed).
void ExitIfEntryErrors(const std::string &dir) {
  const CsvTable t = ReadCsvFile((std::filesystem::path(dir) / "sweep.csv").string());
  bool failed = false;
  for (size_t r = 0; r < t.size(); ++r) {
    if (t.Cell(r, "status") != kStatusError) continue;
    fmt::print(stderr, "error: point {}, {}: {}\n", t.Cell(r, "point"), t.Cell(r, "name"),
               t.Cell(r, "message"));
    failed = true;
  }
  if (failed) throw ExitCode{kExitEntryError};
}

// The whole sweep in this process; with `ranks`, rank 0 of an MPI job, the points spread over it.
void RunSweepHere(const SweepArgs &args, RankZeroPoints *ranks, const std::string &who) {
  const Sweep sweep = LoadSweep(args.file);
  const std::string out = SweepOutFolder(sweep, args.out);
  for (const std::string &note : ValidateSweepPoints(sweep)) fmt::print(stderr, "note: {}\n", note);
  Progress progress("sweep", "points", stderr, Progress::ModeFor(stderr, args.quiet),
                    Progress::SteadyClock(), /*line_interval_s=*/10.0, /*tick_s=*/1.0);
  SweepOptions options;
  options.jobs = args.jobs;
  options.keep_runs = args.keep_runs;
  options.restart = args.restart;
  options.progress = &progress;
  options.notes = stderr;
  if (ranks != nullptr) options.schedule = ranks->Schedule(sweep, args.jobs, &progress);
  options.who = who;
  const auto start = std::chrono::steady_clock::now();
  // Trajectory reuse (scenarios/trajectory_reuse.h): when every axis is a timing key.
  const std::string blocker = args.no_reuse ? "--no-reuse" : SweepReuseBlocker(sweep);
  TrajectoryStore trajectories;
  const SweepStats stats =
      RunSweep(sweep, out, options,
               ScenarioPointRunner(sweep, &progress, blocker.empty() ? &trajectories : nullptr,
                                   args.threads));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "sweep: {} points ({} run now, {} from an earlier run) in {} -> "
      "{}/sweep.csv\n",
      stats.points, stats.ran, stats.skipped, FormatDuration(seconds), out);
  if (blocker.empty()) {
    fmt::print("trajectory reuse: {} entries re-timed from {} recorded trajectories\n",
               trajectories.replayed(), trajectories.recorded());
    const auto relearned = trajectories.relearned();
    if (!relearned.empty()) {
      fmt::print(stderr,
                 "note: {} replays did not end ok and were learned again in full (the first: "
                 "entry {}, {})\n",
                 relearned.size(), relearned.front().entry, relearned.front().why);
    }
  } else {
    fmt::print("trajectory reuse: off ({})\n", blocker);
  }
  fmt::print("\nmean time per iteration:\n{}", SweepTimeTable(out));
  if (!args.no_plots && PlotSweepFolder(out, {.size = args.size}))
    fmt::print("plots: {}/plots\n", out);
  fmt::print("report: {} and {}/report.html\n",
             WriteReport(out, std::string("commsim ") + CommsimVersion()), out);
  ExitIfEntryErrors(out);
}

void RunSweepCommand(const SweepArgs &args) {
  if (args.count) {
    fmt::print("{}\n", LoadSweep(args.file).size());
    return;
  }
  if (!mpi::LaunchedByMpiLauncher()) return RunSweepHere(args, nullptr, "");
  mpi::MpiWorld world;
  if (world.rank() > 0) {
    return ServeSweepPoints(world, args.file, args.out, args.jobs, args.keep_runs, !args.no_reuse,
                            args.threads);
  }
  RankZeroPoints ranks(world);
  RunSweepHere(args, &ranks, world.Describe());
}

}  // namespace

void AddSweepCommand(CLI::App &app) {
  auto args = std::make_shared<SweepArgs>();
  auto *cmd = app.add_subcommand("sweep",
                                 "Run a sweep file: every point x algorithm; "
                                 "resumable, parallel over points");
  cmd->add_option("FILE", args->file, "sweep file (JSON)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out, "output folder (default: results/<sweep name>)");
  cmd->add_option("--jobs,-j", args->jobs,
                  "points run in parallel (default 0: one per core; results identical)")
      ->check(CLI::Range(0, 256));
  AddThreadsOption(*cmd, args->threads);
  cmd->add_flag("--keep-runs", args->keep_runs, "also keep every point's run folder in runs/<K>/");
  cmd->add_flag("--restart", args->restart,
                "discard the results already in the output folder (needed "
                "after editing the sweep)");
  cmd->add_flag("--no-reuse", args->no_reuse,
                "run every point's learning in full (default: points whose axes change only "
                "timing re-time the trajectory recorded once; results identical)");
  AddOutputFlags(*cmd, *args);
  cmd->add_flag("--count", args->count,
                "print the number of points and exit (e.g. for a Slurm job array)");
  cmd->callback([args] { RunSweepCommand(*args); });

  auto *point = app.add_subcommand("sweep-point",
                                   "Run one point of a sweep into a sweep "
                                   "folder (to spread points over machines)");
  point->add_option("FILE", args->file, "sweep file (JSON)")->required()->check(CLI::ExistingFile);
  point->add_option("--point", args->point, "point index (0-based, as in sweep.csv)")->required();
  point->add_option("--out", args->out, "sweep output folder")->required();
  point->add_flag("--keep-runs", args->keep_runs, "also write the point's run folder runs/<K>/");
  AddThreadsOption(*point, args->threads);
  point->callback([args] {
    const Sweep sweep = LoadSweep(args->file);
    if (args->point < 0) {
      throw UserError(fmt::format("{}: point {} does not exist (the sweep has points 0..{})",
                                  sweep.file, args->point, sweep.size() - 1));
    }
    const auto point = static_cast<size_t>(args->point);
    PrepareSweepFolder(sweep, args->out, /*restart=*/false);
    RunSweepPoint(sweep, point, args->out, args->keep_runs,
                  ScenarioPointRunner(sweep, nullptr, nullptr, args->threads));
    fmt::print("point {} -> {}\n", point, PointFile(args->out, point));
  });
}

}  // namespace commsim::app
