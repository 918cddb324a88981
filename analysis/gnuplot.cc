// Gnuplot scripts and rendering (see gnuplot.h).
#include "analysis/gnuplot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

#include "analysis/subprocess.h"
#include "analysis/writers.h"
#include "base/error.h"
#include "base/owned_folder.h"
#include "base/private_folder.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// Physical size of a figure. The PDF has it exactly (pdfcairo's default half-size fonts and lines
// are undone); the PNG is drawn at kPngDpi with fonts, lines and markers scaled to match; the SVG
// uses 72 units per inch (it is scalable anyway).
struct Geometry {
  double width_in;
  double height_in;
  int font_pt;
  const char* key;  // `set key` arguments
};

constexpr double kPngDpi = 150;

Geometry GeometryOf(FigureSize size) {
  if (size == FigureSize::kColumn) return {3.5, 3.0, 7, "below vertical Left reverse"};
  return {7.0, 3.6, 9, "outside right top vertical Left reverse"};
}

// `set format <axis>`: 10^n on log axes, SI prefixes where asked for; gnuplot's default otherwise
// (which prints small and large numbers as a x 10^n, never as long fixed-point strings).
std::string AxisFormat(char axis, bool log, bool si) {
  if (log && si) return fmt::format("set format {} '%.0s%c'\n", axis);
  if (log) return fmt::format("set format {} '10^{{%L}}'\n", axis);
  return fmt::format("set format {} '% h'\n", axis);
}

// Where the legend goes. A short legend goes right of a page-size plot; a long one (many entries
// or long labels), and every legend of a column-size plot, goes below it in as many columns as the
// longest label allows, and the figure grows by the rows beyond three so the axes keep their size.
// Gnuplot spaces the columns by its own estimate of the text width (about 0.85 em per character,
// plus the line sample), so that is the estimate used here: columns it would draw wider than the
// figure are cut off.
struct KeyLayout {
  std::string args;  // `set key` arguments
  double extra_height_in = 0;
};

KeyLayout KeyPlacement(const LinePlot& plot, FigureSize size) {
  size_t items = plot.key_only.size(), longest = 0;
  for (const Series& s : plot.key_only) longest = std::max(longest, s.title.size());
  for (const Series& s : plot.series) {
    if (s.points.empty() || !s.in_key) continue;
    ++items;
    longest = std::max(longest, s.title.size());
  }
  const Geometry g = GeometryOf(size);
  if (size == FigureSize::kPage && items <= 8 && longest <= 24) return {g.key};
  const double chars_per_line = g.width_in * 72 / (0.85 * g.font_pt);
  const size_t columns =
      std::max<size_t>(1, static_cast<size_t>(chars_per_line / static_cast<double>(longest + 7)));
  const size_t rows = std::max<size_t>(1, (items + columns - 1) / columns);
  const double row_in = 1.3 * g.font_pt / 72;
  return {fmt::format("below vertical maxrows {} Left reverse", rows),
          rows > 3 ? static_cast<double>(rows - 3) * row_in : 0.0};
}

// "with ... title ..." of a series: markers on about ten of its points.
std::string ItemStyle(const Series& s) {
  std::string style;
  if (s.markers) {
    const size_t interval = std::max<size_t>(1, (s.points.size() + 9) / 10);
    style = fmt::format("linespoints pointinterval {} pointtype {} pointsize 0.6 linewidth 1.5",
                        interval, s.style.point);
  } else {
    style = "lines linewidth 1.2";
  }
  return fmt::format("with {} dashtype {} linecolor rgb '{}' {}", style, s.style.dash,
                     s.style.color,
                     s.in_key ? "title " + GnuplotString(s.title) + " noenhanced" : "notitle");
}

// Cairo stamps PDFs with the wall-clock time (/CreationDate (D:YYYYMMDDHHMMSS...)); replacing
// the digits with a fixed date of the same length keeps every byte offset valid and makes the
// same run give byte-identical PDFs.
void FixPdfCreationDate(std::string& bytes) {
  const std::string key = "/CreationDate (D:";
  const size_t at = bytes.find(key);
  if (at == std::string::npos || at + key.size() + 14 > bytes.size()) return;
  std::string_view digits(bytes.data() + at + key.size(), 14);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos) return;
  bytes.replace(at + key.size(), 14, "20000101000000");
}

constexpr size_t kImageMaxBytes = size_t{256} << 20;

}  // namespace

std::string LinePlotData(const LinePlot& plot) {
  std::string out;
  bool first = true;
  for (const Series& s : plot.series) {
    if (s.points.empty()) continue;
    if (!first) out += "\n\n";
    first = false;
    out += fmt::format("# {}\n", SanitizeText(s.title));
    for (const auto& [x, y] : s.points) out += fmt::format("{} {}\n", x, y);
  }
  return out;
}

std::string ScriptPreamble(std::string_view name, std::string_view title, FigureSize size,
                           double extra_height_in) {
  Geometry g = GeometryOf(size);
  g.height_in += extra_height_in;
  const double scale = kPngDpi / 72.0;
  std::string out = fmt::format(
      "# Generated by commsim ({} size: {} x {:.3g} in). Re-render with: gnuplot {}.gp\n"
      "reset\n"
      "set encoding utf8\n"
      "set terminal pngcairo size {},{} enhanced font 'sans,{}' fontscale {:.4f} "
      "linewidth {:.4f} pointscale {:.4f}\n"
      "set output '{}.png'\n",
      FigureSizeName(size), g.width_in, g.height_in, name, std::lround(g.width_in * kPngDpi),
      std::lround(g.height_in * kPngDpi), g.font_pt, scale, scale, scale, name);
  // Column figures go under a caption in a paper: no title there.
  if (size == FigureSize::kPage && !title.empty()) {
    out += fmt::format("set title {} noenhanced\n", GnuplotString(title));
  }
  out += fmt::format(
      "set border 3 lw 1\n"
      "set tics nomirror out scale 0.6\n"
      "set grid back linetype 1 linecolor rgb '#e3e3e3' linewidth 1\n"
      "set key {} noenhanced samplen 3 spacing 1.1\n",
      g.key);
  return out;
}

std::string ScriptEpilogue(std::string_view name, FigureSize size, double extra_height_in) {
  Geometry g = GeometryOf(size);
  g.height_in += extra_height_in;
  return fmt::format(
      "set terminal svg size {},{} dynamic enhanced font 'sans,{}' background rgb 'white'\n"
      "set output '{}.svg'\n"
      "replot\n"
      "set terminal pdfcairo size {}in,{:.3g}in enhanced font 'sans,{}' fontscale 1 linewidth 2\n"
      "set output '{}.pdf'\n"
      "replot\n"
      "unset output\n",
      std::lround(g.width_in * 72), std::lround(g.height_in * 72), g.font_pt, name, g.width_in,
      g.height_in, g.font_pt, name);
}

TimeUnit TimeUnitFor(double largest_s) {
  TimeUnit unit{1, "s"};
  if (!(largest_s > 0)) return unit;
  for (const TimeUnit u :
       {TimeUnit{1, "s"}, TimeUnit{1e3, "ms"}, TimeUnit{1e6, "µs"}, TimeUnit{1e9, "ns"}}) {
    unit = u;
    if (largest_s * u.per_second >= 1) break;
  }
  return unit;
}

void UseTimeUnit(LinePlot& plot, char axis, std::string_view quantity) {
  const bool x = axis == 'x';
  double largest = 0;
  for (const Series& s : plot.series) {
    for (const auto& p : s.points) largest = std::max(largest, std::abs(x ? p.first : p.second));
  }
  const TimeUnit unit = (x ? plot.log_x : plot.log_y) ? TimeUnit{1, "s"} : TimeUnitFor(largest);
  for (Series& s : plot.series) {
    for (auto& p : s.points) (x ? p.first : p.second) *= unit.per_second;
  }
  (x ? plot.x_label : plot.y_label) = fmt::format("{} ({})", quantity, unit.name);
}

std::string LinePlotScript(const LinePlot& plot, FigureSize size) {
  const KeyLayout key = KeyPlacement(plot, size);
  std::string out = ScriptPreamble(plot.name, plot.title, size, key.extra_height_in);
  if (key.args != GeometryOf(size).key) out += fmt::format("set key {}\n", key.args);
  out += fmt::format("set xlabel {} noenhanced\nset ylabel {} noenhanced\n",
                     GnuplotString(plot.x_label), GnuplotString(plot.y_label));
  if (plot.log_x) out += "set logscale x\n";
  if (plot.log_y) out += "set logscale y\n";
  out += AxisFormat('x', plot.log_x, plot.x_si);
  out += AxisFormat('y', plot.log_y, false);
  for (const std::string& line : plot.extra) out += line + "\n";
  std::vector<std::string> items;
  for (const Series& s : plot.key_only) items.push_back("keyentry " + ItemStyle(s));
  int index = 0;
  for (const Series& s : plot.series) {
    if (s.points.empty()) continue;
    items.push_back(
        fmt::format("'{}.dat' index {} using 1:2 {}", plot.name, index++, ItemStyle(s)));
  }
  if (index == 0) {
    // Nothing finite to draw (e.g. every entry diverged at once): an empty, labelled frame.
    out +=
        "set xrange [0:1]\nset yrange [0:1]\nunset logscale\n"
        "set label 1 'no finite values' at graph 0.5, graph 0.5 center\n"
        "plot NaN notitle\n";
  } else {
    out += "plot ";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", \\\n     " : "") + items[i];
    out += "\n";
  }
  return out + ScriptEpilogue(plot.name, size, key.extra_height_in);
}

void PlotSet::AddScript(const std::string& name, const std::string& script,
                        const std::string& data) {
  files_.emplace_back(name + ".dat", data);
  files_.emplace_back(name + ".gp", script);
  names_.push_back(name);
}

void PlotSet::Add(const LinePlot& plot) {
  AddScript(plot.name, LinePlotScript(plot, size_), LinePlotData(plot));
}

bool PlotSet::Render(const PlotOptions& options) const {
  OwnedFolder folder(folder_);
  const std::string shown = folder.Shown("plots");
  const std::string gnuplot = FindProgram(options.gnuplot);
  if (gnuplot.empty()) {
    for (const auto& [name, content] : files_) folder.WriteFile("plots/" + name, content);
    if (options.log) {
      fmt::print(options.log, "note: {} not found; plot scripts and data are in {} (no images)\n",
                 options.gnuplot, shown);
    }
    return false;
  }
  if (names_.empty()) return true;
  const PrivateFolder render("commsim-plots");
  for (const auto& [name, content] : files_) WriteFileAtomic(render.path() + "/" + name, content);
  std::vector<std::string> scripts;
  for (const std::string& name : names_) scripts.push_back(name + ".gp");
  ProgramResult result = RunProgram(gnuplot, scripts, render.path());
  if (!result.ok()) {
    if (result.output.size() > 2000) result.output = result.output.substr(0, 2000) + "...";
    throw UserError(fmt::format("{}: gnuplot failed ({}):\n{}", shown,
                                result.signal ? fmt::format("signal {}", result.signal)
                                              : fmt::format("exit status {}", result.exit_code),
                                result.output));
  }
  const OwnedFolder rendered(render.path());
  std::vector<std::pair<std::string, std::string>> images;
  // Gnuplot exits 0 even when it could not write an image (e.g. on a full disk).
  for (const std::string& name : names_) {
    for (const char* extension : {".png", ".svg", ".pdf"}) {
      std::optional<std::string> image = rendered.ReadFile(name + extension, kImageMaxBytes);
      if (!image || image->empty()) {
        throw UserError(fmt::format("{}/{}{}: gnuplot wrote no image (is the disk full?){}", shown,
                                    name, extension,
                                    result.output.empty() ? "" : "\n" + result.output));
      }
      if (std::string_view(extension) == ".pdf") FixPdfCreationDate(*image);
      images.emplace_back(name + extension, std::move(*image));
    }
  }
  for (const auto& [name, content] : files_) folder.WriteFile("plots/" + name, content);
  for (const auto& [name, content] : images) folder.WriteFile("plots/" + name, content);
  return true;
}

}  // namespace commsim
