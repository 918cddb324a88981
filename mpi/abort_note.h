// A note printed when the job is stopped by SIGTERM: Open MPI's mpirun sends SIGTERM to every rank
// still alive when one rank dies, and Slurm's scancel (or a time limit) does so too. SIGKILL
// cannot be caught, so the rank that died says nothing; rank 0 keeps a note of what every rank is
// running and prints it, so the message names the point the dead rank was running.
//
// The handler writes the note most recently set to stderr with write(2) and ends the process with
// _exit(128 + SIGTERM), doing nothing that is unsafe in a signal handler. The note lives in static
// storage: a signal handler can reach nothing else. Notes longer than kMaxAbortNoteBytes are cut.
#ifndef COMMSIM_MPI_ABORT_NOTE_H_
#define COMMSIM_MPI_ABORT_NOTE_H_

#include <cstddef>
#include <string_view>

namespace commsim::mpi {

inline constexpr size_t kMaxAbortNoteBytes = 8192;

// Installs the SIGTERM handler. Call once, from the thread that calls SetAbortNote.
void InstallAbortNoteHandler();

// The note the handler prints from now on; empty: print nothing. Called by one thread only.
void SetAbortNote(std::string_view note);

}  // namespace commsim::mpi

#endif  // COMMSIM_MPI_ABORT_NOTE_H_
