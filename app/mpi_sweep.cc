#include "app/mpi_sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "base/error.h"
#include "base/owned_folder.h"
#include "mpi/abort_note.h"
#include "mpi/task_farm.h"
#include "scenarios/sweep_point.h"
#include "scenarios/trajectory_reuse.h"

namespace commsim::app {
namespace {

namespace fs = std::filesystem;

// What rank 0 prints when the job is stopped by SIGTERM (mpi/abort_note.h).
std::string AbortNote(const Sweep& sweep, const std::map<size_t, int>& running) {
  if (running.empty()) return "";
  std::string note =
      "error: the MPI job was stopped (a rank died, or the job was cancelled) while these points "
      "ran:\n";
  for (const auto& [point, rank] : running) {
    note += fmt::format("  point {} ({}) on rank {}\n", point, sweep.DescribePoint(point), rank);
  }
  note += "finished points are stored: run the same command again to run the others\n";
  return note;
}

// Throws UserError unless `out` holds the sweep folder rank 0 prepared for this very sweep.
void CheckSameFolder(const Sweep& sweep, const std::string& out, const std::string& who) {
  std::optional<std::string> stored;
  try {
    stored = OwnedFolder(out).ReadFile("sweep.fingerprint", 4096);
  } catch (const UserError&) {
    stored.reset();
  }
  const std::string fingerprint = stored ? stored->substr(0, stored->find('\n')) : "";
  if (!stored) {
    throw UserError(fmt::format(
        "{}: {} does not see the sweep folder {} that rank 0 prepared: the output folder must be "
        "on a file system shared by every node (and every rank must start in the same folder)",
        sweep.file, who, out));
  }
  if (fingerprint != sweep.fingerprint) {
    throw UserError(fmt::format(
        "{}: on {} this file is a different sweep (fingerprint {}) from rank 0's ({}): every node "
        "must see the same sweep file",
        sweep.file, who, sweep.fingerprint, fingerprint));
  }
}

}  // namespace

int ResolveJobs(int jobs) {
  return jobs > 0 ? jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string SweepOutFolder(const Sweep& sweep, const std::string& out) {
  return out.empty() ? (fs::path("results") / sweep.name).string() : out;
}

RankZeroPoints::~RankZeroPoints() {
  if (ran_) return;
  try {
    mpi::FarmOptions options;
    options.run = [](size_t) {};
    mpi::RunFarmRoot(world_, {}, options);
  } catch (...) {  // no tasks: nothing can fail
  }
}

PointScheduler RankZeroPoints::Schedule(const Sweep& sweep, int jobs, Progress* progress) {
  return [this, &sweep, jobs, progress](const std::vector<size_t>& pending,
                                        const std::function<void(size_t)>& run_point) {
    ran_ = true;
    mpi::InstallAbortNoteHandler();
    mpi::FarmOptions options;
    options.jobs = ResolveJobs(jobs);
    options.run = run_point;
    options.describe = [&sweep](size_t point) {
      return fmt::format("point {} ({})", point, sweep.DescribePoint(point));
    };
    options.on_remote_done = [progress](size_t) {
      if (progress) progress->Advance();
    };
    options.on_running = [&sweep](const std::map<size_t, int>& running) {
      mpi::SetAbortNote(AbortNote(sweep, running));
    };
    mpi::RunFarmRoot(world_, pending, options);
    mpi::SetAbortNote("");
  };
}

void ServeSweepPoints(mpi::MpiWorld& world, const std::string& file, const std::string& out,
                      int jobs, bool keep_runs, bool reuse, int threads) {
  const std::string who = world.Describe();
  std::optional<Sweep> sweep;
  std::string load_error;
  try {
    sweep = LoadSweep(file);
  } catch (const UserError& e) {
    load_error = fmt::format("{}: {}", who, e.what());
  }
  const std::string dir = sweep ? SweepOutFolder(*sweep, out) : "";
  // Each rank records the trajectories its own points need (scenarios/trajectory_reuse.h).
  TrajectoryStore trajectories;
  const bool share = reuse && sweep && SweepReuseBlocker(*sweep).empty();
  const PointRunner runner =
      sweep ? ScenarioPointRunner(*sweep, nullptr, share ? &trajectories : nullptr, threads)
            : PointRunner();
  std::once_flag checked;
  mpi::FarmOptions options;
  options.jobs = ResolveJobs(jobs);
  options.run = [&](size_t point) {
    if (!sweep) throw UserError(load_error);
    std::call_once(checked, [&] { CheckSameFolder(*sweep, dir, who); });
    RunSweepPoint(*sweep, point, dir, keep_runs, runner, who);
  };
  options.describe = [&](size_t point) {
    return sweep ? fmt::format("point {} ({})", point, sweep->DescribePoint(point))
                 : fmt::format("point {}", point);
  };
  mpi::RunFarmWorker(world, options);
}

void RefuseOtherCommandsOnSeveralRanks(int argc, char** argv) {
  int ranks = 1;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    if (const char* value = std::getenv(name)) ranks = std::max(ranks, std::atoi(value));
  }
  if (ranks <= 1) return;
  std::string command;
  for (int i = 1; i < argc && command.empty(); ++i) {
    if (argv[i][0] != '-') command = argv[i];
  }
  if (command == "sweep" || command.empty()) return;
  throw UserError(fmt::format(
      "`commsim {}` was started on {} MPI ranks: only `commsim sweep` runs on several ranks (each "
      "rank would run the whole command and write the same outputs); run it without mpirun/srun",
      command, ranks));
}

}  // namespace commsim::app
