// The MPI job this process was started in, if any, as a Channel (mpi/channel.h).
//
// Whether a launcher started this process is read from the environment it sets: Open MPI's
// mpirun sets OMPI_COMM_WORLD_SIZE, PMIx launchers (srun --mpi=pmix, prterun) PMIX_RANK, PMI-2
// launchers PMI_SIZE. Without one, nothing here calls MPI: a plain `commsim` never initialises
// it, so it starts as fast and prints exactly what it did before MPI support existed.
// Built without MPI (CMake found none), MpiWorld refuses to start under a launcher with a
// UserError that says so, instead of running every point once per rank.
#ifndef COMMSIM_MPI_MPI_WORLD_H_
#define COMMSIM_MPI_MPI_WORLD_H_

#include <optional>
#include <string>

#include "mpi/channel.h"

namespace commsim::mpi {

// True when this commsim was built with MPI.
bool MpiBuilt();

// True when a launcher started this process (see above). No MPI call.
bool LaunchedByMpiLauncher();

// MPI_COMM_WORLD as a Channel: constructing calls MPI_Init_thread (MPI_THREAD_FUNNELED: only the
// thread that made it calls MPI), destroying calls MPI_Finalize. One per process.
// REQUIRES: LaunchedByMpiLauncher(). Throws UserError when built without MPI.
class MpiWorld final : public Channel {
 public:
  MpiWorld();
  ~MpiWorld() override;
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void Send(int to, const std::string& text) override;
  Envelope Receive() override;
  std::optional<Envelope> Poll() override;

  // "rank 1 of 3 (host node12, pid 4242)", for messages and journal entries.
  std::string Describe() const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace commsim::mpi

#endif  // COMMSIM_MPI_MPI_WORLD_H_
