// Subcommands of the `commsim` program. Each Add*Command registers one CLI11 subcommand whose
// callback does the work; main() only wires them up. Commands report bad input by throwing
// UserError, which main() prints and turns into exit code 1.
// Exit codes: 0 success (diverged entries are results, not failures); 1 bad input or a failed
// write; 2 an unexpected internal error; 3 the outputs were written but an algorithm entry ended
// with status "error" (ExitCode below).
#ifndef COMMSIM_APP_COMMANDS_H_
#define COMMSIM_APP_COMMANDS_H_

#include <CLI/CLI.hpp>
#include <string>

#include "analysis/gnuplot.h"

namespace commsim::app {

// Thrown by a command that finished its work but must exit with a non-zero code.
struct ExitCode {
  int code = 0;
};
inline constexpr int kExitEntryError = 3;

void AddRunCommand(CLI::App& app);
void AddListCommand(CLI::App& app);
void AddNetCommand(CLI::App& app);
void AddSweepCommand(CLI::App& app);   // sweep, sweep-point (app/cmd_sweep.cc)
void AddPlotCommand(CLI::App& app);    // app/cmd_plot.cc
void AddReportCommand(CLI::App& app);  // app/cmd_plot.cc
void AddDataCommand(CLI::App& app);
void AddCompressCommand(CLI::App& app);
void AddCalibrateCommand(CLI::App& app);  // app/cmd_calibrate.cc
void AddTuneConsensusCommand(CLI::App& app);
void AddReproduceCommand(CLI::App& app);  // app/cmd_reproduce.cc

// Adds `--size page|column` (figure size of the plots) to `cmd`, stored into `size`.
CLI::Option* AddFigureSizeOption(CLI::App& cmd, FigureSize& size);  // app/cmd_plot.cc

// The options of the commands that run entries into an output folder: run, retime, sweep.
struct RunFolderArgs {
  std::string file;                     // the scenario, trace or sweep file
  std::string out;                      // --out: the output folder (empty: under results/)
  int jobs = 0;                         // --jobs: entries or points in parallel (0: one per core)
  int threads = 1;                      // --threads (AddThreadsOption)
  bool no_plots = false;                // --no-plots: no plots/ folder
  FigureSize size = FigureSize::kPage;  // --size page|column
  bool quiet = false;                   // --quiet, -q: no progress lines
};
// Adds `--no-plots`, `--size page|column` and `--quiet` (`-q`) to `cmd`, stored into `args`.
void AddOutputFlags(CLI::App& cmd, RunFolderArgs& args);  // app/cmd_plot.cc

// Adds `--threads N` (threads inside each entry's run, RunSetup::threads: 1 to 256, default 1)
// to `cmd`, stored into `threads`; anything else is refused with the value it got.
CLI::Option* AddThreadsOption(CLI::App& cmd, int& threads);  // app/cmd_run.cc

}  // namespace commsim::app

#endif  // COMMSIM_APP_COMMANDS_H_
