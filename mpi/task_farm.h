// A task farm over the ranks of a job: rank 0 hands out task numbers one at a time, each to a rank
// with a free slot (dynamic scheduling: fast ranks take more), and runs tasks itself too; every
// rank runs up to `jobs` tasks at once, each on a thread of its own.
//
// Protocol (short texts over a Channel, mpi/channel.h): a worker sends "want" for each free slot
// and rank 0 answers "task <K>" or "stop"; when a task ends the worker sends "done <K>" or
// "fail <K> <kind> <message>" (kind U: UserError, M: out of memory, E: any other error); after
// "stop", once its tasks have ended, it sends "bye". Rank 0 answers only "want", so a worker
// waits for a reply only right after asking.
//
// Failure: when a task throws, tasks already running finish, no new task starts, and RunFarmRoot
// throws the failure of the lowest-numbered failed task: the exception itself when rank 0 ran it;
// when another rank did, a UserError with its text (kinds U and M) or a std::runtime_error
// (kind E). Tasks run in any order on any rank: callers make results independent of the schedule.
#ifndef COMMSIM_MPI_TASK_FARM_H_
#define COMMSIM_MPI_TASK_FARM_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "mpi/channel.h"

namespace commsim::mpi {

struct FarmOptions {
  int jobs = 1;  // tasks at once on this rank; REQUIRES: >= 1
  // Runs one task on a thread of this rank; throws on failure. Must be safe to call from
  // `jobs` threads at once.
  std::function<void(size_t task)> run;
  // Names a task in messages, e.g. "point 4 (bandwidth=1e+08)". Optional.
  std::function<std::string(size_t task)> describe;
  // Rank 0 only, on the calling thread: a task another rank ran has ended without failure.
  std::function<void(size_t task)> on_remote_done;
  // Rank 0 only, on the calling thread: the running tasks (task -> rank) after every change.
  std::function<void(const std::map<size_t, int>& running)> on_running;
};

// Rank 0: runs `tasks` (handed out in this order) over all ranks and returns once every other
// rank has said "bye". Call it exactly once per job, also with no tasks: that releases the other
// ranks. Throws as described above.
void RunFarmRoot(Channel& channel, const std::vector<size_t>& tasks, const FarmOptions& options);

// Every rank but 0: runs what rank 0 hands out until it says "stop".
void RunFarmWorker(Channel& channel, const FarmOptions& options);

}  // namespace commsim::mpi

#endif  // COMMSIM_MPI_TASK_FARM_H_
