// Plots of one sweep folder (see plot.h).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "analysis/plot.h"
#include "analysis/sweep_view.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

constexpr const char* kReferenceColor = "#888888";

LinePlot BasePlot(const SweepView& view, const char* name, std::string title, std::string y_label) {
  LinePlot plot;
  plot.name = name;
  plot.title = std::move(title);
  plot.x_label = view.XLabel();
  plot.y_label = std::move(y_label);
  plot.log_x = view.x_log();
  if (view.x_unit() == "bit/s" && view.x_log()) plot.x_format = "%.0s%c";
  if (!view.x_categories().empty()) {
    std::string tics;
    for (size_t i = 0; i < view.x_categories().size(); ++i) {
      tics += fmt::format("{}{} {}", i ? ", " : "", GnuplotTicLabel(view.x_categories()[i]), i);
    }
    plot.extra.push_back(fmt::format("set xtics ({})", tics));
  }
  return plot;
}

// One series per curve from `value(row)`; rows without a value are left out.
template <class Value>
void AddCurveSeries(const SweepView& view, LinePlot& plot, std::vector<double>& ys, Value value,
                    bool skip_baseline) {
  for (const SweepCurve& c : view.curves()) {
    if (skip_baseline && c.algorithm == view.baseline()) continue;
    Series s{c.label, AlgorithmColor(c.algorithm), 1 + c.group, true, {}};
    for (const size_t r : c.rows) {
      const std::optional<double> y = value(r);
      if (!y || !std::isfinite(*y)) continue;
      s.points.emplace_back(view.X(r), *y);
      ys.push_back(*y);
    }
    plot.series.push_back(std::move(s));
  }
}

void AddTimePerIteration(const SweepView& view, PlotSet& set) {
  const CsvTable& t = view.table();
  LinePlot plot = BasePlot(view, "time_per_iteration",
                           fmt::format("Mean time per iteration vs {}", view.x_name()),
                           "mean time per iteration (s)");
  std::vector<double> ys;
  AddCurveSeries(
      view, plot, ys, [&](size_t r) { return t.Number(r, "mean_iter_time_s"); }, false);
  if (t.HasNumbers("mean_compute_time_s")) {
    // The compute time per x (same for every algorithm up to stragglers): the smallest.
    std::map<int, std::map<double, double>> compute;  // group -> x -> seconds
    std::map<int, std::string> group_label;
    for (const SweepCurve& c : view.curves()) {
      group_label[c.group] = c.label.substr(c.name.size());
      for (const size_t r : c.rows) {
        const std::optional<double> y = t.Number(r, "mean_compute_time_s");
        if (!y || !std::isfinite(*y)) continue;
        auto [it, inserted] = compute[c.group].emplace(view.X(r), *y);
        if (!inserted) it->second = std::min(it->second, *y);
      }
    }
    for (const auto& [group, points] : compute) {
      Series s{"compute time" + group_label[group], kReferenceColor, 2 + group, false, {}};
      for (const auto& [x, y] : points) {
        s.points.emplace_back(x, y);
        ys.push_back(y);
      }
      plot.series.push_back(std::move(s));
    }
  }
  plot.log_y = LogScaleFits(ys, 10.0);
  set.Add(plot);
}

void AddSpeedup(const SweepView& view, PlotSet& set) {
  if (view.baseline().empty()) return;
  LinePlot plot = BasePlot(
      view, "speedup", fmt::format("Speed-up over {} vs {}", view.BaselineTitle(), view.x_name()),
      fmt::format("speed-up over {} (time per iteration ratio)", view.BaselineTitle()));
  std::vector<double> ys;
  AddCurveSeries(
      view, plot, ys, [&](size_t r) { return view.Speedup(r); }, true);
  if (ys.empty()) return;
  plot.log_y = LogScaleFits(ys, 10.0);
  plot.extra.push_back(
      fmt::format("set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb \"{}\"",
                  kReferenceColor));
  set.Add(plot);
}

void AddTimeToTarget(const SweepView& view, PlotSet& set) {
  const CsvTable& t = view.table();
  if (!t.HasNumbers("time_to_target_s")) return;
  // The target differs between points unless the sweep sets one: title it only when common.
  std::string target = t.Cell(0, "target_value");
  for (size_t r = 1; r < t.size(); ++r) {
    if (t.Cell(r, "target_value") != target) target.clear();
  }
  if (t.Cell(0, "target_metric") != "loss") target.clear();
  LinePlot plot = BasePlot(
      view, "time_to_target",
      target.empty() ? fmt::format("Time to target loss vs {}", view.x_name())
                     : fmt::format("Time to reach loss <= {} vs {}", target, view.x_name()),
      "simulated time to target loss (s)");
  std::vector<double> ys;
  AddCurveSeries(
      view, plot, ys, [&](size_t r) { return t.Number(r, "time_to_target_s"); }, false);
  plot.log_y = LogScaleFits(ys, 10.0);
  set.Add(plot);
}

}  // namespace

bool PlotSweepFolder(const std::string& dir, const PlotOptions& options) {
  const SweepView view = SweepView::Load(dir);
  PlotSet set((fs::path(dir) / "plots").string());
  AddTimePerIteration(view, set);
  AddSpeedup(view, set);
  AddTimeToTarget(view, set);
  return set.Render(options);
}

}  // namespace commsim
