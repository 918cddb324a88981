// `commsim plot DIR` and `commsim report DIR`.
#include <fmt/format.h>

#include "analysis/plot.h"
#include "analysis/report.h"
#include "analysis/version.h"
#include "app/commands.h"

namespace commsim::app {

CLI::Option* AddFigureSizeOption(CLI::App& cmd, FigureSize& size) {
  return cmd
      .add_option_function<std::string>(
          "--size", [&size](const std::string& name) { size = *ParseFigureSize(name); },
          "figure size: page (7 in wide, across both columns of a paper; default) or column "
          "(3.5 in)")
      ->check(CLI::IsMember({"page", "column"}))
      ->option_text("page|column");
}

void AddOutputFlags(CLI::App& cmd, RunFolderArgs& args) {
  cmd.add_flag("--no-plots", args.no_plots, "do not render plots");
  AddFigureSizeOption(cmd, args.size);
  cmd.add_flag("--quiet,-q", args.quiet, "no progress lines");
}

void AddPlotCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "plot", "Render PNG, SVG and PDF plots (gnuplot) of a run or sweep folder into DIR/plots");
  auto dir = std::make_shared<std::string>();
  auto size = std::make_shared<FigureSize>(FigureSize::kPage);
  cmd->add_option("DIR", *dir, "run folder (metrics.csv) or sweep folder (sweep.csv)")->required();
  AddFigureSizeOption(*cmd, *size);
  cmd->callback([dir, size] {
    if (PlotFolder(*dir, {.size = *size})) fmt::print("plots: {}/plots\n", *dir);
  });
}

void AddReportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "report",
      "Write DIR/report.md and DIR/report.html: tables of bits, time and speed-ups, the plots");
  auto dir = std::make_shared<std::string>();
  cmd->add_option("DIR", *dir, "run folder (summary.csv) or sweep folder (sweep.csv)")->required();
  cmd->callback([dir] {
    const std::string md = WriteReport(*dir, std::string("commsim ") + CommsimVersion());
    fmt::print("report: {} and {}/report.html\n", md, *dir);
  });
}

}  // namespace commsim::app
