#include "mpi/mpi_world.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

#include "base/check.h"
#include "base/error.h"
#include "base/output_journal.h"

#if COMMSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace commsim::mpi {
namespace {

#if COMMSIM_HAVE_MPI
constexpr int kTag = 17;

Envelope ReceiveProbed(const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_CHAR, &count);
  Envelope e;
  e.from = probed.MPI_SOURCE;
  e.text.resize(static_cast<size_t>(count));
  MPI_Recv(e.text.data(), count, MPI_CHAR, probed.MPI_SOURCE, kTag, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return e;
}
#endif

}  // namespace

bool MpiBuilt() { return COMMSIM_HAVE_MPI != 0; }

bool LaunchedByMpiLauncher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

std::string MpiWorld::Describe() const {
  return fmt::format("rank {} of {} (host {}, pid {})", rank_, size_, HostName(), ::getpid());
}

#if COMMSIM_HAVE_MPI

MpiWorld::MpiWorld() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  COMMSIM_CHECK(provided >= MPI_THREAD_FUNNELED, "MPI gives thread support {}", provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::~MpiWorld() { MPI_Finalize(); }

void MpiWorld::Send(int to, const std::string& text) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, kTag, MPI_COMM_WORLD);
}

Envelope MpiWorld::Receive() {
  MPI_Status status;
  MPI_Probe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &status);
  return ReceiveProbed(status);
}

std::optional<Envelope> MpiWorld::Poll() {
  int flag = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &flag, &status);
  if (!flag) return std::nullopt;
  return ReceiveProbed(status);
}

#else  // built without MPI

MpiWorld::MpiWorld() {
  throw UserError(
      "this commsim was built without MPI, so it cannot run under mpirun or srun: install Open "
      "MPI (libopenmpi-dev; scripts/bootstrap.sh does) and rebuild, or run it without a launcher");
}

MpiWorld::~MpiWorld() = default;

void MpiWorld::Send(int, const std::string&) { COMMSIM_CHECK(false, "built without MPI"); }

Envelope MpiWorld::Receive() {
  COMMSIM_CHECK(false, "built without MPI");
  return {};
}

std::optional<Envelope> MpiWorld::Poll() { return std::nullopt; }

#endif

}  // namespace commsim::mpi
