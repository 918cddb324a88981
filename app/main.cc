#include <CLI/CLI.hpp>
#include <malloc.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <new>

#include "analysis/version.h"
#include "app/commands.h"
#include "app/home.h"
#include "app/mpi_sweep.h"
#include "sim/error.h"

int main(int argc, char** argv) {
  // Keep freed large buffers (model-sized messages and vectors, 10-100 MB each) in the heap
  // instead of returning them to the kernel, so each round does not page-fault them in again:
  // 3x faster rounds at ResNet-18 size (bench/ps_sim_bench). Set COMMSIM_MMAP=1 to disable.
  // One arena for every thread (--jobs, --threads): a thread's own arena grows in heaps of at
  // most 64 MB, so it would map model-sized buffers afresh (and fault them in) every round.
  if (std::getenv("COMMSIM_MMAP") == nullptr) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_ARENA_MAX, 1);
  }
  // Past a file-size limit (ulimit -f), fail the write with EFBIG and report it like any other
  // write error, instead of being killed by SIGXFSZ with a half-written temporary.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"commsim: discrete-event network simulator for communication-compressed learning"};
  app.set_version_flag("--version", std::string("commsim ") + commsim::CommsimVersion());
  app.require_subcommand(0, 1);
  commsim::app::AddRunCommand(app);
  commsim::app::AddListCommand(app);
  commsim::app::AddNetCommand(app);
  commsim::app::AddSweepCommand(app);
  commsim::app::AddPlotCommand(app);
  commsim::app::AddReportCommand(app);
  commsim::app::AddDataCommand(app);
  commsim::app::AddCompressCommand(app);
  commsim::app::AddCalibrateCommand(app);
  commsim::app::AddTuneConsensusCommand(app);
  try {
    commsim::app::UseHomeDataDir();
    commsim::app::RefuseOtherCommandsOnSeveralRanks(argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const commsim::app::ExitCode& e) {
    return e.code;
  } catch (const commsim::UserError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    // Sizes from user input are bounded before allocation; this is the backstop for what is
    // within the limits but still more than this machine's memory.
    std::fputs("error: out of memory: this run needs more memory than is available; use a "
               "smaller model, data set, batch or fewer workers\n",
               stderr);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  if (app.get_subcommands().empty()) {
    std::fputs(app.help().c_str(), stdout);
  }
  // Tables and listings go to stdout: a full disk or a closed pipe there is an error too.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "error: cannot write to standard output: %s\n", std::strerror(errno));
    return 1;
  }
  return 0;
}
