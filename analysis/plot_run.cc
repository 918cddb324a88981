// Plots of one run folder (see plot.h).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>

#include "analysis/csv.h"
#include "analysis/output_folder.h"
#include "analysis/plot.h"
#include "base/error.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

struct Entry {
  std::string label;
  std::string algorithm;
  std::string color;         // the summary's `color` cell ("" when absent)
  std::vector<size_t> rows;  // metrics rows, in file order
};

struct RunData {
  CsvTable metrics;
  CsvTable summary;
  std::vector<Entry> entries;
  std::vector<SeriesStyle> styles;     // per entry
  std::optional<double> optimal_loss;  // F* = F(x*) + R(x*) when the objective knows it
  bool decentralized = false;          // every entry decentralized: curves are of the mean x̄
};

std::vector<Entry> Entries(const CsvTable& metrics, const CsvTable& summary) {
  std::map<std::string, size_t> summary_row;
  for (size_t r = 0; r < summary.size(); ++r) summary_row[summary.Cell(r, "name")] = r;
  std::vector<Entry> entries;
  std::map<std::string, size_t> index;
  for (size_t r = 0; r < metrics.size(); ++r) {
    const std::string& label = metrics.Cell(r, "algorithm");
    auto [it, inserted] = index.emplace(label, entries.size());
    if (inserted) {
      auto row = summary_row.find(label);
      if (row == summary_row.end()) {
        entries.push_back({label, label, "", {}});
      } else {
        entries.push_back({label,
                           summary.Cell(row->second, "algorithm"),
                           summary.Cell(row->second, "color"),
                           {}});
      }
    }
    entries[it->second].rows.push_back(r);
  }
  return entries;
}

RunData LoadRun(const std::string& dir) {
  RunData run;
  run.metrics = ReadCsvFile((fs::path(dir) / "metrics.csv").string());
  run.summary = ReadCsvFile((fs::path(dir) / "summary.csv").string());
  for (const char* column : {"algorithm", "iteration", "loss", "cum_bits", "sim_time_s"}) {
    if (!run.metrics.Has(column)) {
      throw UserError(fmt::format("{}/metrics.csv: missing column \"{}\"", dir, column));
    }
  }
  run.entries = Entries(run.metrics, run.summary);
  std::vector<std::string> algorithms, colors;
  for (const Entry& e : run.entries) {
    algorithms.push_back(e.algorithm);
    colors.push_back(e.color);
  }
  run.styles = EntryStyles(algorithms, colors);
  run.decentralized = run.summary.size() > 0;
  for (size_t r = 0; r < run.summary.size(); ++r) {
    if (!run.optimal_loss) run.optimal_loss = run.summary.Number(r, "optimal_loss");
    // Decentralized entries, and only they, report a consensus distance.
    run.decentralized = run.decentralized && !run.summary.Cell(r, "final_consensus_dist").empty();
  }
  if (run.optimal_loss && !std::isfinite(*run.optimal_loss)) run.optimal_loss.reset();
  return run;
}

using Value = std::function<std::optional<double>(size_t row)>;

LinePlot Curves(const RunData& run, const Value& x_of, const Value& y_of, bool x_may_be_log) {
  LinePlot plot;
  std::vector<double> xs, ys;
  for (size_t i = 0; i < run.entries.size(); ++i) {
    Series s{run.entries[i].label, run.styles[i], true, {}};
    for (const size_t r : run.entries[i].rows) {
      const std::optional<double> x = x_of(r);
      const std::optional<double> y = y_of(r);
      if (!x || !y || !std::isfinite(*x) || !std::isfinite(*y)) continue;
      s.points.emplace_back(*x, *y);
      xs.push_back(*x);
      ys.push_back(*y);
    }
    plot.series.push_back(std::move(s));
  }
  // Records before any communication (cum_bits 0) or at the optimum (distance or suboptimality
  // 0, or a rounding error below it) do not stop a log scale; such points are left out of it.
  auto positive = [](std::vector<double> v) {
    std::erase_if(v, [](double x) { return !(x > 0); });
    return v;
  };
  plot.log_y = LogScaleFits(positive(ys));
  plot.log_x = x_may_be_log && LogScaleFits(positive(xs), 100.0);
  for (Series& s : plot.series) {
    std::erase_if(s.points, [&](const std::pair<double, double>& p) {
      return (plot.log_x && !(p.first > 0)) || (plot.log_y && !(p.second > 0));
    });
  }
  return plot;
}

struct Axis {
  const char* column;
  std::string label;
};

void AddCurves(PlotSet& set, const RunData& run, const char* name, const Axis& x, const Axis& y,
               std::string title, const Value& y_value = nullptr) {
  if (!y_value && !run.metrics.HasNumbers(y.column)) return;
  const CsvTable& m = run.metrics;
  const Value x_of = [&](size_t r) { return m.Number(r, x.column); };
  const Value y_of = y_value ? y_value : [&](size_t r) { return m.Number(r, y.column); };
  const std::string x_column = x.column;
  LinePlot plot = Curves(run, x_of, y_of, x_column != "iteration");
  plot.name = name;
  plot.title = std::move(title);
  plot.x_label = x.label;
  plot.y_label = y.label;
  plot.x_si = x_column == "cum_bits";
  if (x_column == "sim_time_s") UseTimeUnit(plot, 'x', "simulated time");
  set.Add(plot);
}

// One bar per summary row: its colour (the entry's curve colour) as a gnuplot rgb integer, and
// the `set xtics (...)` list of the rows' labels.
struct Bars {
  std::vector<long> rgb;
  std::string xtics;
};

Bars BarsOf(const RunData& run) {
  const CsvTable& summary = run.summary;
  std::map<std::string, std::string> color_of;  // entry label -> its curve colour
  for (size_t i = 0; i < run.entries.size(); ++i) {
    color_of[run.entries[i].label] = run.styles[i].color;
  }
  Bars bars;
  for (size_t r = 0; r < summary.size(); ++r) {
    const std::string& label = summary.Cell(r, "name");
    const std::string color = color_of.count(label) ? color_of[label]
                                                    : AlgorithmColor(summary.Cell(r, "algorithm"),
                                                                     summary.Cell(r, "color"));
    bars.rgb.push_back(std::stol(color.substr(1), nullptr, 16));
    bars.xtics += fmt::format("{}{} {}", r ? ", " : "", GnuplotTicLabel(label), r);
  }
  return bars;
}

void AddBitsBars(PlotSet& set, const RunData& run) {
  const CsvTable& summary = run.summary;
  const Bars bars = BarsOf(run);
  std::string data = "# index uplink_bits_per_iter downlink_bits_per_iter rgb\n";
  for (size_t r = 0; r < summary.size(); ++r) {
    const double iterations = summary.Number(r, "iterations").value_or(0);
    const double up = iterations > 0 ? summary.Number(r, "bits_up").value_or(0) / iterations : 0;
    const double down =
        iterations > 0 ? summary.Number(r, "bits_down").value_or(0) / iterations : 0;
    data += fmt::format("{} {} {} {}\n", r, up, down, bars.rgb[r]);
  }
  const char* name = "bits_per_iteration";
  std::string script =
      ScriptPreamble(name, "Wire bits per iteration (uplink solid, downlink hatched)", set.size());
  script += fmt::format(
      "set ylabel 'wire bits per iteration' noenhanced\n"
      "set format y '%.0s%c'\n"
      "set yrange [0:*]\n"
      "set xrange [-0.6:{}]\n"
      "set xtics ({}) rotate by -30 noenhanced\n"
      "set grid noxtics\n"
      "plot '{}.dat' using 1:($2+$3):(0.7):4 with boxes fill pattern 4 border rgb '#000000' "
      "linecolor rgb variable title 'downlink', \\\n"
      "     '' using 1:2:(0.7):4 with boxes fill solid 0.85 border rgb '#000000' "
      "linecolor rgb variable title 'uplink'\n",
      static_cast<double>(summary.size()) - 0.4, bars.xtics, name);
  script += ScriptEpilogue(name, set.size());
  set.AddScript(name, script, data);
}

// Mean time per iteration split into compute, codec and communication (stacked, bottom up). A
// missing or empty column counts as 0 (summaries written before codec time was modelled); the
// parts are clamped at 0 so a rounding residue cannot draw a bar below the axis.
void AddTimeBars(PlotSet& set, const RunData& run) {
  const CsvTable& summary = run.summary;
  const Bars bars = BarsOf(run);
  std::vector<std::array<double, 3>> parts;
  double largest = 0;
  for (size_t r = 0; r < summary.size(); ++r) {
    std::array<double, 3> p{};
    const char* columns[3] = {"mean_compute_time_s", "mean_codec_time_s", "mean_comm_time_s"};
    for (int k = 0; k < 3; ++k) {
      const double v = summary.Has(columns[k]) ? summary.Number(r, columns[k]).value_or(0) : 0;
      p[k] = std::isfinite(v) && v > 0 ? v : 0;
    }
    largest = std::max(largest, p[0] + p[1] + p[2]);
    parts.push_back(p);
  }
  const TimeUnit unit = TimeUnitFor(largest);
  std::string data = fmt::format("# index compute codec communication ({}) rgb\n", unit.name);
  for (size_t r = 0; r < parts.size(); ++r) {
    data += fmt::format("{} {} {} {} {}\n", r, parts[r][0] * unit.per_second,
                        parts[r][1] * unit.per_second, parts[r][2] * unit.per_second, bars.rgb[r]);
  }
  const char* name = "time_breakdown";
  std::string script = ScriptPreamble(name, "Time per iteration by part", set.size());
  script += fmt::format(
      "set ylabel 'mean time per iteration ({})' noenhanced\n"
      "set yrange [0:{}]\n"
      "set xrange [-0.6:{}]\n"
      "set xtics ({}) rotate by -30 noenhanced\n"
      "set grid noxtics\n"
      "plot '{}.dat' using 1:($2+$3+$4):(0.7):5 with boxes fill solid 0.3 border rgb '#000000' "
      "linecolor rgb variable title 'communication', \\\n"
      "     '' using 1:($2+$3):(0.7):5 with boxes fill pattern 2 border rgb '#000000' "
      "linecolor rgb variable title 'codec', \\\n"
      "     '' using 1:2:(0.7):5 with boxes fill solid 0.85 border rgb '#000000' "
      "linecolor rgb variable title 'compute'\n",
      unit.name, largest > 0 ? "*" : "1", static_cast<double>(summary.size()) - 0.4, bars.xtics,
      name);
  script += ScriptEpilogue(name, set.size());
  set.AddScript(name, script, data);
}

}  // namespace

bool PlotRunFolder(const std::string& dir, const PlotOptions& options) {
  const RunData run = LoadRun(dir);
  PlotSet set(options.into.empty() ? dir : options.into, options.size);
  const std::string x = run.decentralized ? "x̄" : "x";
  const Axis iteration{"iteration", "iteration"};
  const Axis bits{"cum_bits", "wire bits (cumulative)"};
  const Axis time{"sim_time_s", "simulated time (s)"};
  Axis quality{"loss", fmt::format("training loss F({})", x)};
  Value quality_of = nullptr;
  std::string what = "Training loss";
  if (run.optimal_loss) {
    // The optimum is known: the suboptimality shows convergence that a raw loss flattening at
    // F* hides.
    quality.label = fmt::format("suboptimality F({}) − F*", x);
    what = "Suboptimality";
    const double f_star = *run.optimal_loss;
    quality_of = [&run, f_star](size_t r) -> std::optional<double> {
      const std::optional<double> loss = run.metrics.Number(r, "loss");
      if (!loss) return std::nullopt;
      return *loss - f_star;
    };
  }
  AddCurves(set, run, "loss_vs_iteration", iteration, quality, what + " vs iteration", quality_of);
  AddCurves(set, run, "dist_vs_iteration", iteration,
            {"dist_to_opt_sq", fmt::format("‖{} − x*‖²", x)},
            "Squared distance to the optimum vs iteration");
  AddCurves(set, run, "loss_vs_bits", bits, quality, what + " vs wire bits", quality_of);
  AddCurves(set, run, "loss_vs_time", time, quality, what + " vs simulated time", quality_of);
  AddCurves(set, run, "accuracy_vs_bits", bits, {"test_accuracy", "test accuracy"},
            "Test accuracy vs wire bits");
  AddCurves(set, run, "accuracy_vs_iteration", iteration, {"test_accuracy", "test accuracy"},
            "Test accuracy vs iteration");
  AddCurves(set, run, "grad_residual_vs_iteration", iteration,
            {"grad_residual_sq", "gradient residual (1/n) Σᵢ ‖gᵢ − hᵢ‖²"},
            "Gradient residual vs iteration (DIANA, DORE)");
  AddCurves(set, run, "model_residual_vs_iteration", iteration,
            {"model_residual_sq", "model residual ‖x − x̂ + ηe‖²"},
            "Model residual vs iteration (DORE)");
  AddCurves(set, run, "consensus_vs_iteration", iteration,
            {"consensus_dist", "consensus distance (1/n) Σᵢ ‖xᵢ − x̄‖²"},
            "Consensus distance vs iteration");
  if (run.summary.size() > 0 && run.summary.Has("bits_up") && run.summary.Has("iterations")) {
    AddBitsBars(set, run);
  }
  if (run.summary.size() > 0 && run.summary.Has("mean_iter_time_s")) AddTimeBars(set, run);
  return set.Render(options);
}

bool PlotFolder(const std::string& dir, const PlotOptions& options) {
  const bool sweep = fs::exists(fs::path(dir) / "sweep.csv");
  if (sweep || fs::exists(fs::path(dir) / "metrics.csv")) {
    CheckMarkedFolder(options.into.empty() ? dir : options.into, "plot");
    return sweep ? PlotSweepFolder(dir, options) : PlotRunFolder(dir, options);
  }
  throw UserError(
      fmt::format("{}: neither a run folder (metrics.csv) nor a sweep folder (sweep.csv)", dir));
}

}  // namespace commsim
