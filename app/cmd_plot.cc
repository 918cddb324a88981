// `commsim plot DIR` and `commsim report DIR`.
#include <fmt/format.h>

#include "analysis/plot.h"
#include "analysis/report.h"
#include "app/commands.h"

namespace commsim::app {

void AddPlotCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "plot",
      "Render PNG and SVG plots (gnuplot) of a run folder or a sweep folder into DIR/plots");
  auto dir = std::make_shared<std::string>();
  cmd->add_option("DIR", *dir, "run folder (metrics.csv) or sweep folder (sweep.csv)")->required();
  cmd->callback([dir] {
    if (PlotFolder(*dir)) fmt::print("plots: {}/plots\n", *dir);
  });
}

void AddReportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "report", "Write DIR/report.md: Markdown tables of bits, time and speed-ups, with the plots");
  auto dir = std::make_shared<std::string>();
  cmd->add_option("DIR", *dir, "run folder (summary.csv) or sweep folder (sweep.csv)")->required();
  cmd->callback([dir] { fmt::print("report: {}\n", WriteReport(*dir)); });
}

}  // namespace commsim::app
