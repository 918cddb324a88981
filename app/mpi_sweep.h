// `commsim sweep` on the ranks of an MPI job (mpirun -n K commsim sweep FILE, or srun).
//
// Rank 0 does everything a one-process sweep does (folder, lock, resume, sweep.csv, plots,
// report) except that its PointScheduler spreads the points over every rank with the task farm
// (mpi/task_farm.h): a rank asks for a point whenever one of its --jobs slots is free, so fast
// nodes take more. Each point is stored by the rank that ran it, as points/<K>.csv, exactly as in
// a one-process sweep, so sweep.csv is byte-identical to one. The output folder must be on a file
// system every rank sees; a rank that does not see the folder rank 0 prepared says so.
// While points run, points/<K>.running names the rank running point K; when a rank dies, mpirun
// stops the job with SIGTERM and rank 0 prints which point every rank was running (mpi/
// abort_note.h); running the same command again resumes.
#ifndef COMMSIM_APP_MPI_SWEEP_H_
#define COMMSIM_APP_MPI_SWEEP_H_

#include <string>

#include "analysis/progress.h"
#include "mpi/mpi_world.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_runner.h"

namespace commsim::app {

// Points at once on this rank: `jobs`, or one per hardware thread when `jobs` <= 0.
int ResolveJobs(int jobs);

// Rank 0's side. Schedule() gives the sweep's PointScheduler; whether or not it ran, the
// destructor lets the other ranks go (e.g. when the sweep failed before any point ran).
class RankZeroPoints {
 public:
  explicit RankZeroPoints(mpi::MpiWorld& world) : world_(world) {}
  ~RankZeroPoints();
  RankZeroPoints(const RankZeroPoints&) = delete;
  RankZeroPoints& operator=(const RankZeroPoints&) = delete;

  // REQUIRES: `sweep` and `progress` (may be null) outlive the returned scheduler's use.
  PointScheduler Schedule(const Sweep& sweep, int jobs, Progress* progress);

 private:
  mpi::MpiWorld& world_;
  bool ran_ = false;
};

// The sweep's output folder: `out`, or results/<sweep name> when `out` is empty.
std::string SweepOutFolder(const Sweep& sweep, const std::string& out);

// Every other rank: runs the points rank 0 hands out into SweepOutFolder(sweep, out), each entry
// on `threads` threads.
void ServeSweepPoints(mpi::MpiWorld& world, const std::string& file, const std::string& out,
                      int jobs, bool keep_runs, bool reuse = true, int threads = 1);

// Under a launcher that started several processes, only `commsim sweep` may run (any other
// command would run once per rank, each writing the same outputs): throws UserError otherwise.
void RefuseOtherCommandsOnSeveralRanks(int argc, char** argv);

}  // namespace commsim::app

#endif  // COMMSIM_APP_MPI_SWEEP_H_
