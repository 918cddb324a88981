#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "analysis/version.h"
#include "app/commands.h"
#include "app/home.h"
#include "app/mpi_sweep.h"
#include "base/error.h"
#include "base/process_memory.h"
#include "models/eigen_blocking.h"

int main(int argc, char** argv) {
  commsim::SetUpProcessMemory(argv);  // may re-execute the program once (base/process_memory.h)
  // Past a file-size limit (ulimit -f), fail the write with EFBIG and report it like any other
  // write error, instead of being killed by SIGXFSZ with a half-written temporary.
  std::signal(SIGXFSZ, SIG_IGN);
  commsim::FixEigenBlocking();  // the same bits on every machine (models/eigen_blocking.h)
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
  commsim::app::AddReproduceCommand(app);
  try {
    commsim::app::UseHomeDataDir();
    commsim::app::RefuseOtherCommandsOnSeveralRanks(argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message and gives its own codes (104, 105, 106, 109, ...); every usage
    // error exits 1 like any other bad input (README), --help and --version 0.
    return app.exit(e) == 0 ? 0 : 1;
  } catch (const commsim::app::ExitCode& e) {
    return e.code;
  } catch (const commsim::UserError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    // Sizes from user input are bounded before allocation; this is the backstop for what is
    // within the limits but still more than this machine's memory.
    std::fputs(
        "error: out of memory: this run needs more memory than is available; use a "
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
