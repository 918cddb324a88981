// Gnuplot plumbing shared by the run and sweep plots: entry styles, safe text literals, data
// blocks, script assembly, figure sizes, and rendering to PNG (pngcairo), SVG and PDF (pdfcairo).
//
// Every plot is a script plots/<name>.gp beside its data plots/<name>.dat; the script draws
// <name>.png, <name>.svg and <name>.pdf and can be re-run by hand (`cd plots && gnuplot <name>.gp`)
// after editing.
//
// Text safety. Titles, axis labels, legend entries and tic labels may come from scenario and sweep
// files (entry labels, axis names and values), so they are untrusted. Each reaches a script only
// through GnuplotString / GnuplotTicLabel: a single-quoted gnuplot literal, inside which gnuplot
// performs no backquote command substitution, no @macro expansion and no backslash escapes. The
// literal never holds a quote (an apostrophe becomes ’, U+2019, because gnuplot's '' escape is
// unreliable), a newline, a control character or invalid UTF-8 (SanitizeText), so it cannot end
// early or span lines. Every such text is drawn `noenhanced` (printed literally). Enhanced text is
// used only for the tic formats commsim writes itself ("10^{%L}"). Gnuplot is started without a
// shell (RunProgram): the folder and file names never pass through a command line.
#ifndef COMMSIM_ANALYSIS_GNUPLOT_H_
#define COMMSIM_ANALYSIS_GNUPLOT_H_

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commsim {

// "#rrggbb" (lower case) for an algorithm: `color` when it is one (the colour its registry line
// gives it, written in the summary's `color` column), else a colour from a fixed palette chosen
// by a hash of the name, so it is stable too.
std::string AlgorithmColor(std::string_view algorithm, std::string_view color = "");

// How one line is drawn.
struct SeriesStyle {
  std::string color;  // "#rrggbb"
  int dash = 1;       // gnuplot dashtype (1 = solid)
  int point = 7;      // gnuplot point type (marker)
};

// Number of entries for which EntryStyles guarantees pairwise different markers.
inline constexpr size_t kDistinctMarkers = 15;

// One style per entry, in entry order, from each entry's registry algorithm name and registered
// colour (colors[i], may be empty or missing). The first entry of an algorithm gets
// AlgorithmColor(algorithm, color); later entries of the same algorithm get lighter
// and darker shades of it and other dash types. Guarantees: colours pairwise different; markers
// pairwise different for up to kDistinctMarkers entries (they repeat beyond).
std::vector<SeriesStyle> EntryStyles(const std::vector<std::string>& algorithms,
                                     const std::vector<std::string>& colors = {});

// `text` with newlines, tabs and other control characters replaced by spaces and invalid UTF-8
// replaced by U+FFFD: the form in which untrusted text is put into scripts, data and reports.
std::string SanitizeText(std::string_view text);

// A gnuplot single-quoted string literal of SanitizeText(text), with ' written as ’ (U+2019).
std::string GnuplotString(std::string_view text);

// A tic label literal for `set xtics ('label' pos, ...)`: as GnuplotString, with '%' doubled
// because gnuplot treats tic labels as format strings.
std::string GnuplotTicLabel(std::string_view text);

// True when values are all positive and span at least a factor `min_ratio`: a log axis helps.
bool LogScaleFits(const std::vector<double>& values, double min_ratio = 20.0);

// Figure sizes for a paper: one column (3.5 in wide) or the full page width (7 in, two columns).
enum class FigureSize { kPage, kColumn };
// "page" / "column"; nullopt for anything else.
std::optional<FigureSize> ParseFigureSize(std::string_view text);
std::string_view FigureSizeName(FigureSize size);

// One line of a plot: its points and how to draw it.
struct Series {
  std::string title;  // legend text (untrusted: printed literally)
  SeriesStyle style;
  bool markers = true;  // false for reference lines
  std::vector<std::pair<double, double>> points;
  bool in_key = true;  // false: drawn without a legend entry (LinePlot::key_only explains it)
};

struct LinePlot {
  std::string name;     // file stem: <name>.gp, .dat, .png, .svg, .pdf
  std::string title;    // untrusted; drawn on page-size figures only
  std::string x_label;  // untrusted
  std::string y_label;  // untrusted
  bool log_x = false;
  bool log_y = false;
  bool x_si = false;  // SI-prefixed tic labels on a log x axis ("10k", "1M") instead of 10^n
  std::vector<std::string> extra;  // further gnuplot commands (trusted: commsim's own text)
  std::vector<Series> series;
  // Legend entries drawn before the series' own, with no data (gnuplot `keyentry`): a factored
  // legend, e.g. one entry per colour and one per dash type instead of one per combination.
  std::vector<Series> key_only;
};

// For a linear axis holding seconds: rescales the points to the unit (s, ms, µs, ns) in which the
// largest value is at least 1 and sets the axis label to "<quantity> (<unit>)", so tics read
// "0 100 200" (ms) rather than "0 0.0001 0.0002". A log axis keeps seconds (its tics are 10^n).
void UseTimeUnit(LinePlot& plot, char axis, std::string_view quantity);
// The unit UseTimeUnit picks for a linear axis whose largest value is `largest_s` seconds.
struct TimeUnit {
  double per_second;  // values in seconds x per_second = values in the unit
  const char* name;   // "s", "ms", "µs", "ns"
};
TimeUnit TimeUnitFor(double largest_s);

// The .dat text (one block per non-empty series, blank-line separated) and the .gp text.
std::string LinePlotData(const LinePlot& plot);
std::string LinePlotScript(const LinePlot& plot, FigureSize size);

// The lines that open a script (title, grid, key, first terminal = PNG) and the lines that
// redraw the plot as SVG and PDF. `title` is untrusted. `extra_height_in` makes the figure taller
// than the size's own height (room for a long legend); pass the same value to both.
std::string ScriptPreamble(std::string_view name, std::string_view title, FigureSize size,
                           double extra_height_in = 0);
std::string ScriptEpilogue(std::string_view name, FigureSize size, double extra_height_in = 0);

struct PlotOptions {
  std::string gnuplot = "gnuplot";  // program name (looked up on PATH) or path
  std::FILE* log = stderr;          // where the one-line "gnuplot not found" note goes
  FigureSize size = FigureSize::kPage;
  std::string into;  // the commsim folder whose plots/ receives the figures ("" = the one read)
};

// Collects plot files and renders them.
class PlotSet {
 public:
  // Plots of the commsim folder `folder`, written into `folder`/plots.
  PlotSet(std::string folder, FigureSize size) : folder_(std::move(folder)), size_(size) {}
  // Adds <name>.dat and <name>.gp (kept in memory until Render).
  void Add(const LinePlot& plot);
  void AddScript(const std::string& name, const std::string& script, const std::string& data);
  const std::vector<std::string>& names() const { return names_; }
  FigureSize size() const { return size_; }
  // Runs gnuplot on every script in a private folder of its own (no shell: that folder is the
  // child's working directory), then writes the scripts, data and images into `folder`/plots
  // through OwnedFolder (base/owned_folder.h): never through a link, never over a file commsim
  // does not own. Without gnuplot, writes the scripts and data only and returns false (after one
  // line on options.log). Throws UserError with gnuplot's message when a script fails, naming the
  // image when one was not written or is empty, or naming a plots entry commsim may not replace.
  bool Render(const PlotOptions& options) const;

 private:
  std::string folder_;
  FigureSize size_;
  std::vector<std::string> names_;
  std::vector<std::pair<std::string, std::string>> files_;  // name, content
};

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_GNUPLOT_H_
