// Gnuplot plumbing shared by the run and sweep plots: stable colours per algorithm, data blocks,
// script assembly, and rendering to PNG (pngcairo) and SVG.
//
// Every plot is a script plots/<name>.gp beside its data plots/<name>.dat; the script draws the
// PNG, then the SVG, and can be re-run by hand (`cd plots && gnuplot <name>.gp`) after editing.
// Text is drawn with `noenhanced`, so labels such as "mem_sgd" print literally.
#ifndef COMMSIM_ANALYSIS_GNUPLOT_H_
#define COMMSIM_ANALYSIS_GNUPLOT_H_

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commsim {

// "#rrggbb" for a registry name (sgd, qsgd, memsgd, diana, doublesqueeze, dore, dpsgd, choco,
// malcom; spellings with '_' or '-' and a "_sgd"/"_psgd" suffix map to the same colour). Other
// names get a colour from a fixed palette chosen by a hash of the name, so it is stable too.
std::string AlgorithmColor(std::string_view algorithm);

// A gnuplot double-quoted string literal.
std::string GnuplotQuote(std::string_view text);

// A tic label literal for `set xtics ("label" pos, ...)`: quoted, with '%' doubled because gnuplot
// treats tic labels as format strings.
std::string GnuplotTicLabel(std::string_view text);

// True when values are all positive and span at least a factor `min_ratio`: a log axis helps.
bool LogScaleFits(const std::vector<double>& values, double min_ratio = 20.0);

// One line of a plot: its points and how to draw it.
struct Series {
  std::string title;    // legend text
  std::string color;    // "#rrggbb"
  int dash = 1;         // gnuplot dashtype
  bool markers = true;  // points drawn on short series (reference lines set this false)
  std::vector<std::pair<double, double>> points;
};

struct LinePlot {
  std::string name;  // file stem: <name>.gp, <name>.dat, <name>.png, <name>.svg
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  std::string x_format;  // gnuplot `set format x`, e.g. "%.0s%c" for SI prefixes; "" = default
  std::vector<std::string> extra;  // further `set` commands
  std::vector<Series> series;
};

// The .dat text (one block per series, blank-line separated) and the .gp text for a plot.
std::string LinePlotData(const LinePlot& plot);
std::string LinePlotScript(const LinePlot& plot);

// Header lines selecting PNG output for `name`, and the lines that redraw it as SVG.
std::string ScriptPreamble(std::string_view name, std::string_view title);
std::string ScriptSvgEpilogue(std::string_view name);

struct PlotOptions {
  std::string gnuplot = "gnuplot";  // program name (looked up on PATH) or path
  std::FILE* log = stderr;          // where the one-line "gnuplot not found" note goes
};

// Collects plot files and renders them.
class PlotSet {
 public:
  explicit PlotSet(std::string plots_dir) : dir_(std::move(plots_dir)) {}
  // Writes <name>.dat and <name>.gp atomically into the plots folder (created if needed).
  void Add(const LinePlot& plot);
  void AddScript(const std::string& name, const std::string& script, const std::string& data);
  const std::vector<std::string>& names() const { return names_; }
  // Runs gnuplot on every script. False (after one line on options.log) when gnuplot is missing;
  // throws UserError with gnuplot's message when a script fails.
  bool Render(const PlotOptions& options) const;

 private:
  std::string dir_;
  std::vector<std::string> names_;
};

// Full path of `program` found on PATH (or `program` itself when it contains '/' and is
// executable); "" when not found.
std::string FindProgram(const std::string& program);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_GNUPLOT_H_
