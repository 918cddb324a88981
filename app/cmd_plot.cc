// `commsim plot DIR` and `commsim report DIR`.
#include <fmt/format.h>

#include "analysis/output_folder.h"
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

namespace {

// `--out NEW_FOLDER` of plot and report: a folder of their own (absent, empty, or made by an
// earlier --out), so that they never write into a folder commsim did not make.
CLI::Option* AddFiguresOutOption(CLI::App& cmd, std::string& out) {
  return cmd.add_option("--out", out,
                        "write into this folder instead of DIR (created, or one an earlier --out "
                        "made); DIR itself must be a folder commsim made");
}

std::string FiguresTarget(const std::string& out) {
  if (!out.empty()) EnsureOutputFolder(out, OutputKind::kFigures, "--out " + out);
  return out;
}

}  // namespace

void AddPlotCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "plot", "Render PNG, SVG and PDF plots (gnuplot) of a run or sweep folder into DIR/plots");
  auto dir = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto size = std::make_shared<FigureSize>(FigureSize::kPage);
  cmd->add_option("DIR", *dir, "run folder (metrics.csv) or sweep folder (sweep.csv)")->required();
  AddFigureSizeOption(*cmd, *size);
  AddFiguresOutOption(*cmd, *out);
  cmd->callback([dir, out, size] {
    const std::string into = FiguresTarget(*out);
    if (PlotFolder(*dir, {.size = *size, .into = into})) {
      fmt::print("plots: {}/plots\n", into.empty() ? *dir : into);
    }
  });
}

void AddReportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "report",
      "Write DIR/report.md and DIR/report.html: tables of bits, time and speed-ups, the plots");
  auto dir = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("DIR", *dir, "run folder (summary.csv) or sweep folder (sweep.csv)")->required();
  AddFiguresOutOption(*cmd, *out);
  cmd->callback([dir, out] {
    const std::string into = FiguresTarget(*out);
    const std::string md = WriteReport(*dir, std::string("commsim ") + CommsimVersion(), into);
    fmt::print("report: {} and {}/report.html\n", md, into.empty() ? *dir : into);
  });
}

}  // namespace commsim::app
