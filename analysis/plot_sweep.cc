// Plots of one sweep folder (see plot.h).
#include <fmt/format.h>

#include <algorithm>
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
  plot.x_si = view.x_unit() == "bit/s";
  if (!view.x_categories().empty()) {
    std::string tics;
    for (size_t i = 0; i < view.x_categories().size(); ++i) {
      tics += fmt::format("{}{} {}", i ? ", " : "", GnuplotTicLabel(view.x_categories()[i]), i);
    }
    plot.extra.push_back(fmt::format("set xtics ({}) noenhanced", tics));
  }
  return plot;
}

int GroupCount(const SweepView& view) {
  int groups = 0;
  for (const SweepCurve& c : view.curves()) groups = std::max(groups, c.group + 1);
  return groups;
}

// ", downlink=multicast" -> "downlink=multicast".
std::string GroupText(const SweepCurve& c) {
  std::string text = c.label.substr(c.name.size());
  return text.starts_with(", ") ? text.substr(2) : text;
}

// Curves: colour and marker per entry (EntryStyles over the entries in order of first
// appearance); with several combinations of the other axes, the dash type tells the combination
// and the legend is factored (one line per entry, one per combination) instead of listing every
// curve. Rows without a value are left out; their values are added to `ys`.
template <class Value>
void AddCurveSeries(const SweepView& view, LinePlot& plot, std::vector<double>& ys, Value value,
                    bool skip_baseline) {
  std::vector<std::string> names, algorithms, colors;
  for (const SweepCurve& c : view.curves()) {
    if (std::find(names.begin(), names.end(), c.name) != names.end()) continue;
    names.push_back(c.name);
    algorithms.push_back(c.algorithm);
    colors.push_back(c.rows.empty() ? "" : view.table().Cell(c.rows.front(), "color"));
  }
  const std::vector<SeriesStyle> styles = EntryStyles(algorithms, colors);
  const bool factored = GroupCount(view) > 1;
  std::map<int, std::string> groups;
  for (const SweepCurve& c : view.curves()) {
    if (skip_baseline && view.IsBaseline(c.name)) continue;
    const size_t entry = std::find(names.begin(), names.end(), c.name) - names.begin();
    Series s{c.label, styles[entry], true, {}};
    if (factored) {
      s.style.dash = 1 + c.group % 5;
      s.in_key = false;
      groups.emplace(c.group, GroupText(c));
    }
    for (const size_t r : c.rows) {
      const std::optional<double> y = value(r);
      if (!y || !std::isfinite(*y)) continue;
      s.points.emplace_back(view.X(r), *y);
      ys.push_back(*y);
    }
    plot.series.push_back(std::move(s));
  }
  if (!factored) return;
  for (size_t e = 0; e < names.size(); ++e) {
    if (skip_baseline && view.IsBaseline(names[e])) continue;
    plot.key_only.push_back({names[e], {styles[e].color, 1, styles[e].point}, true, {}});
  }
  for (const auto& [group, text] : groups) {
    plot.key_only.push_back({text, {"#000000", 1 + group % 5, 0}, false, {}});
  }
}

void AddTimePerIteration(const SweepView& view, PlotSet& set) {
  const CsvTable& t = view.table();
  LinePlot plot = BasePlot(view, "time_per_iteration",
                           fmt::format("Mean time per iteration vs {}", view.x_name()),
                           "time per iteration (s)");
  std::vector<double> ys;
  AddCurveSeries(
      view, plot, ys, [&](size_t r) { return t.Number(r, "mean_iter_time_s"); }, false);
  if (t.HasNumbers("mean_compute_time_s")) {
    // The compute time per x (same for every algorithm up to stragglers): the smallest.
    std::map<int, std::map<double, double>> compute;  // group -> x -> seconds
    for (const SweepCurve& c : view.curves()) {
      for (const size_t r : c.rows) {
        const std::optional<double> y = t.Number(r, "mean_compute_time_s");
        if (!y || !std::isfinite(*y)) continue;
        auto [it, inserted] = compute[c.group].emplace(view.X(r), *y);
        if (!inserted) it->second = std::min(it->second, *y);
      }
    }
    // One grey reference line per combination of the other axes, with that combination's dash
    // (and one legend entry for all of them when the legend is factored).
    const bool factored = GroupCount(view) > 1;
    for (const auto& [group, points] : compute) {
      Series s{"compute time", {kReferenceColor, factored ? 1 + group % 5 : 2, 0}, false, {}};
      s.in_key = !factored;
      for (const auto& [x, y] : points) {
        s.points.emplace_back(x, y);
        ys.push_back(y);
      }
      plot.series.push_back(std::move(s));
    }
    if (factored) plot.key_only.push_back({"compute time", {kReferenceColor, 1, 0}, false, {}});
  }
  plot.log_y = LogScaleFits(ys, 10.0);
  UseTimeUnit(plot, 'y', "time per iteration");
  set.Add(plot);
}

void AddSpeedup(const SweepView& view, PlotSet& set) {
  if (view.baseline().empty()) return;
  LinePlot plot = BasePlot(
      view, "speedup", fmt::format("Speed-up over {} vs {}", view.BaselineTitle(), view.x_name()),
      fmt::format("speed-up over {}", view.BaselineTitle()));
  std::vector<double> ys;
  AddCurveSeries(
      view, plot, ys, [&](size_t r) { return view.Speedup(r); }, true);
  if (ys.empty()) return;
  plot.log_y = LogScaleFits(ys, 10.0);
  plot.extra.push_back(
      fmt::format("set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '{}'",
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
  if (!target.empty()) {
    if (const std::optional<double> value = t.Number(0, "target_value")) {
      target = fmt::format("{:.4g}", *value);
    }
  }
  LinePlot plot =
      BasePlot(view, "time_to_target",
               target.empty() ? fmt::format("Time to target loss vs {}", view.x_name())
                              : fmt::format("Time to reach loss ≤ {} vs {}", target, view.x_name()),
               "simulated time to target loss (s)");
  std::vector<double> ys;
  AddCurveSeries(
      view, plot, ys, [&](size_t r) { return t.Number(r, "time_to_target_s"); }, false);
  plot.log_y = LogScaleFits(ys, 10.0);
  UseTimeUnit(plot, 'y', "simulated time to target");
  set.Add(plot);
}

}  // namespace

bool PlotSweepFolder(const std::string& dir, const PlotOptions& options) {
  const SweepView view = SweepView::Load(dir);
  PlotSet set(options.into.empty() ? dir : options.into, options.size);
  AddTimePerIteration(view, set);
  AddSpeedup(view, set);
  AddTimeToTarget(view, set);
  return set.Render(options);
}

}  // namespace commsim
