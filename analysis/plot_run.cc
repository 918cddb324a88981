// Plots of one run folder (see plot.h).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "analysis/csv.h"
#include "analysis/plot.h"
#include "sim/error.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

struct Entry {
  std::string label;
  std::string algorithm;
  std::vector<size_t> rows;  // metrics rows, in file order
};

std::vector<Entry> Entries(const CsvTable& metrics, const CsvTable& summary) {
  std::map<std::string, std::string> registry;
  for (size_t r = 0; r < summary.size(); ++r) {
    registry[summary.Cell(r, "name")] = summary.Cell(r, "algorithm");
  }
  std::vector<Entry> entries;
  std::map<std::string, size_t> index;
  for (size_t r = 0; r < metrics.size(); ++r) {
    const std::string& label = metrics.Cell(r, "algorithm");
    auto [it, inserted] = index.emplace(label, entries.size());
    if (inserted) {
      auto reg = registry.find(label);
      entries.push_back({label, reg == registry.end() ? label : reg->second, {}});
    }
    entries[it->second].rows.push_back(r);
  }
  return entries;
}

// Dash types tell apart entries that share an algorithm (and so a colour).
std::vector<int> Dashes(const std::vector<Entry>& entries) {
  std::map<std::string, int> seen;
  std::vector<int> dashes;
  for (const Entry& e : entries) dashes.push_back(1 + seen[e.algorithm]++);
  return dashes;
}

LinePlot Curves(const CsvTable& metrics, const std::vector<Entry>& entries, const char* x_column,
                const char* y_column) {
  LinePlot plot;
  const std::vector<int> dashes = Dashes(entries);
  std::vector<double> xs, ys;
  for (size_t i = 0; i < entries.size(); ++i) {
    Series s{entries[i].label, AlgorithmColor(entries[i].algorithm), dashes[i], true, {}};
    for (const size_t r : entries[i].rows) {
      const std::optional<double> x = metrics.Number(r, x_column);
      const std::optional<double> y = metrics.Number(r, y_column);
      if (!x || !y || !std::isfinite(*x) || !std::isfinite(*y)) continue;
      s.points.emplace_back(*x, *y);
      xs.push_back(*x);
      ys.push_back(*y);
    }
    plot.series.push_back(std::move(s));
  }
  // Records before any communication (cum_bits 0) or an exact optimum (distance 0) do not stop a
  // log scale; such points are left out of it.
  auto positive = [](std::vector<double> v) {
    std::erase_if(v, [](double x) { return !(x > 0); });
    return v;
  };
  plot.log_y = LogScaleFits(positive(ys));
  plot.log_x = std::string(x_column) != "iteration" && LogScaleFits(positive(xs), 100.0);
  for (Series& s : plot.series) {
    std::erase_if(s.points, [&](const std::pair<double, double>& p) {
      return (plot.log_x && !(p.first > 0)) || (plot.log_y && !(p.second > 0));
    });
  }
  return plot;
}

void AddCurves(PlotSet& set, const CsvTable& metrics, const std::vector<Entry>& entries,
               const char* name, const char* x_column, const char* y_column, std::string title,
               std::string x_label, std::string y_label) {
  if (!metrics.HasNumbers(y_column)) return;
  LinePlot plot = Curves(metrics, entries, x_column, y_column);
  plot.name = name;
  plot.title = std::move(title);
  plot.x_label = std::move(x_label);
  plot.y_label = std::move(y_label);
  if (std::string(x_column) == "cum_bits") plot.x_format = "%.0s%c";
  set.Add(plot);
}

void AddBitsBars(PlotSet& set, const CsvTable& summary) {
  std::string data = "# index label uplink_bits_per_iter downlink_bits_per_iter color\n";
  std::string xtics;
  for (size_t r = 0; r < summary.size(); ++r) {
    const double iterations = summary.Number(r, "iterations").value_or(0);
    const double up = iterations > 0 ? summary.Number(r, "bits_up").value_or(0) / iterations : 0;
    const double down =
        iterations > 0 ? summary.Number(r, "bits_down").value_or(0) / iterations : 0;
    const std::string color = AlgorithmColor(summary.Cell(r, "algorithm"));
    data += fmt::format("{} {} {} {} {}\n", r, GnuplotQuote(summary.Cell(r, "name")), up, down,
                        std::stol(color.substr(1), nullptr, 16));
    xtics += fmt::format("{}{} {}", r ? ", " : "", GnuplotTicLabel(summary.Cell(r, "name")), r);
  }
  const char* name = "bits_per_iteration";
  std::string script =
      ScriptPreamble(name, "Wire bits per iteration (uplink solid, downlink hatched)");
  script += fmt::format(
      "set ylabel \"bits per iteration\"\n"
      "set xlabel \"algorithm\"\n"
      "set format y \"%.0s%c\"\n"
      "set yrange [0:*]\n"
      "set xrange [-0.6:{}]\n"
      "set xtics ({}) rotate by -30\n"
      "set style fill solid 0.85 border rgb \"#000000\"\n"
      "plot \"{}.dat\" using 1:($3+$4):(0.7):5 with boxes fs pattern 4 border rgb \"#000000\" "
      "lc rgb variable title \"downlink\", \\\n"
      "     \"\" using 1:3:(0.7):5 with boxes fs solid 0.85 lc rgb variable title \"uplink\"\n",
      static_cast<double>(summary.size()) - 0.4, xtics, name);
  script += ScriptSvgEpilogue(name);
  set.AddScript(name, script, data);
}

}  // namespace

bool PlotRunFolder(const std::string& dir, const PlotOptions& options) {
  const CsvTable metrics = ReadCsvFile((fs::path(dir) / "metrics.csv").string());
  const CsvTable summary = ReadCsvFile((fs::path(dir) / "summary.csv").string());
  for (const char* column : {"algorithm", "iteration", "loss", "cum_bits", "sim_time_s"}) {
    if (!metrics.Has(column)) {
      throw UserError(fmt::format("{}/metrics.csv: missing column \"{}\"", dir, column));
    }
  }
  const std::vector<Entry> entries = Entries(metrics, summary);
  PlotSet set((fs::path(dir) / "plots").string());
  AddCurves(set, metrics, entries, "loss_vs_iteration", "iteration", "loss", "Loss vs iteration",
            "iteration", "loss F(x) + R(x)");
  AddCurves(set, metrics, entries, "dist_vs_iteration", "iteration", "dist_to_opt_sq",
            "Distance to the optimum vs iteration", "iteration", "||x - x*||^2");
  AddCurves(set, metrics, entries, "loss_vs_bits", "cum_bits", "loss",
            "Loss vs cumulative wire bits", "cumulative wire bits (bit)", "loss F(x) + R(x)");
  AddCurves(set, metrics, entries, "loss_vs_time", "sim_time_s", "loss", "Loss vs simulated time",
            "simulated time (s)", "loss F(x) + R(x)");
  AddCurves(set, metrics, entries, "accuracy_vs_bits", "cum_bits", "test_accuracy",
            "Test accuracy vs cumulative wire bits", "cumulative wire bits (bit)", "test accuracy");
  AddCurves(set, metrics, entries, "consensus_vs_iteration", "iteration", "consensus_dist",
            "Consensus distance vs iteration", "iteration", "(1/n) sum ||x_i - mean x||^2");
  if (summary.size() > 0 && summary.Has("bits_up") && summary.Has("iterations")) {
    AddBitsBars(set, summary);
  }
  return set.Render(options);
}

bool PlotFolder(const std::string& dir, const PlotOptions& options) {
  if (fs::exists(fs::path(dir) / "sweep.csv")) return PlotSweepFolder(dir, options);
  if (fs::exists(fs::path(dir) / "metrics.csv")) return PlotRunFolder(dir, options);
  throw UserError(
      fmt::format("{}: neither a run folder (metrics.csv) nor a sweep folder (sweep.csv)", dir));
}

}  // namespace commsim
