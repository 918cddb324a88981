#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "analysis/csv.h"
#include "analysis/gnuplot.h"
#include "analysis/html_report.h"
#include "analysis/report.h"
#include "analysis/report_text.h"
#include "analysis/sweep_view.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// One table per metric: rows (group, x) in curve order, columns the entry names.
class SweepGrid {
 public:
  SweepGrid(const SweepView& view, std::vector<std::string> names)
      : view_(view), names_(std::move(names)) {
    for (const SweepCurve& c : view.curves()) {
      group_text_[c.group] = c.label.substr(c.name.size());
      for (const size_t r : c.rows) {
        cell_row_[{c.group, c.name}][view.X(r)] = r;
        if (std::find(keys_.begin(), keys_.end(), std::make_pair(c.group, view.X(r))) ==
            keys_.end()) {
          keys_.emplace_back(c.group, view.X(r));
        }
      }
    }
    std::sort(keys_.begin(), keys_.end());
  }

  // The table of value(row) for every cell; without the baseline's column when `skip_baseline`.
  std::string Render(const std::function<std::string(size_t)>& value, bool skip_baseline) const {
    std::vector<std::string> header = {view_.x_name()};
    for (const std::string& n : names_) {
      if (skip_baseline && view_.IsBaseline(n)) continue;
      header.push_back(n);
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto& [group, x] : keys_) {
      std::vector<std::string> row = {view_.XText(x) + group_text_.at(group)};
      for (size_t i = 1; i < header.size(); ++i) row.push_back(CellOf(group, header[i], x, value));
      rows.push_back(std::move(row));
    }
    return MdTable(header, rows);
  }

 private:
  std::string CellOf(int group, const std::string& name, double x,
                     const std::function<std::string(size_t)>& value) const {
    auto curve = cell_row_.find({group, name});
    if (curve == cell_row_.end()) return "";
    auto it = curve->second.find(x);
    return it == curve->second.end() ? "" : value(it->second);
  }

  const SweepView& view_;
  std::vector<std::string> names_;
  std::vector<std::pair<int, double>> keys_;
  std::map<std::pair<int, std::string>, std::map<double, size_t>>
      cell_row_;  // (group,name)->x->row
  std::map<int, std::string> group_text_;
};

// Where each entry's speed-up over the baseline crosses 1 along the x axis.
std::string CrossoverSection(const SweepView& view) {
  std::string out;
  out += "## Crossover: where compression stops paying off\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const SweepCurve& c : view.curves()) {
    if (c.rows.empty() || view.BaselineOf(c.rows.front()) == c.name) continue;  // not with itself
    std::optional<double> first, last;
    for (const size_t r : c.rows) {
      if (const std::optional<double> s = view.Speedup(r)) {
        if (!first) first = s;
        last = s;
      }
    }
    if (!first) continue;
    std::string verdict;
    const std::vector<Crossing> crossings = view.Crossings(c);
    for (const Crossing& x : crossings) {
      if (!verdict.empty()) verdict += "; ";
      verdict += fmt::format("{} above {}", x.stops_paying ? "slower" : "faster", view.XText(x.x));
    }
    if (crossings.empty()) {
      verdict = *first > 1 ? "faster over the whole range" : "never faster in this range";
    }
    const double lo = view.X(c.rows.front()), hi = view.X(c.rows.back());
    rows.push_back({c.label, verdict, fmt::format("{:.3g}x at {}", *first, view.XText(lo)),
                    fmt::format("{:.3g}x at {}", *last, view.XText(hi))});
  }
  out += MdTable({"algorithm", "compared with " + view.BaselineTitle(), "speed-up at low end",
                  "speed-up at high end"},
                 rows);
  return out;
}

// Bits and quality do not depend on the x axis for synchronous algorithms: the first point.
std::string FirstPointSection(const SweepView& view) {
  const CsvTable& t = view.table();
  std::string out;
  const std::string first_point = t.size() ? t.Cell(0, "point") : "";
  out += fmt::format("## Bits and final quality at point {} ({} = {})\n\n", first_point,
                     view.x_name(), t.size() ? view.XText(view.X(0)) : "");
  // Bits relative to each entry's family baseline (sgd, or dpsgd), per iteration.
  const bool baselines = t.HasNumbers("bits_fraction_of_baseline");
  std::vector<std::string> header = {"algorithm", "status", "bits/iter"};
  if (baselines) header.insert(header.end(), {"baseline", "bit reduction"});
  header.push_back("final loss");
  if (t.HasNumbers("final_test_accuracy")) header.push_back("final test accuracy");
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < t.size() && t.Cell(r, "point") == first_point; ++r) {
    const std::optional<double> bits = t.Number(r, "total_bits");
    const double iterations = t.Number(r, "iterations").value_or(0);
    std::vector<std::string> row = {
        t.Cell(r, "name"), t.Cell(r, "status"),
        MdSi(bits && iterations > 0 ? std::optional<double>(*bits / iterations) : std::nullopt,
             "bit")};
    if (baselines) {
      const std::optional<double> f = t.Number(r, "bits_fraction_of_baseline");
      row.push_back(t.Cell(r, "baseline"));
      row.push_back(f ? MdPercent(1 - *f) : "");
    }
    row.push_back(MdNum(t.Number(r, "final_loss")));
    if (t.HasNumbers("final_test_accuracy"))
      row.push_back(MdNum(t.Number(r, "final_test_accuracy")));
    rows.push_back(std::move(row));
  }
  out += MdTable(header, rows);
  return out;
}

// The sweep's points, and its entry names in first-seen order.
struct SweepEntries {
  std::set<std::string> points;
  std::vector<std::string> names;
};

SweepEntries EntriesOf(const CsvTable& t) {
  SweepEntries e;
  for (size_t r = 0; r < t.size(); ++r) {
    e.points.insert(t.Cell(r, "point"));
    if (std::find(e.names.begin(), e.names.end(), t.Cell(r, "name")) == e.names.end()) {
      e.names.push_back(t.Cell(r, "name"));
    }
  }
  return e;
}

std::string TimeTable(const SweepView& view, const SweepGrid& grid) {
  const CsvTable& t = view.table();
  return grid.Render([&](size_t r) { return MdSi(t.Number(r, "mean_iter_time_s"), "s"); }, false);
}

}  // namespace

std::string SweepTimeTable(const std::string& dir) {
  const SweepView view = SweepView::Load(dir);
  SweepEntries e = EntriesOf(view.table());
  return TimeTable(view, SweepGrid(view, std::move(e.names)));
}

std::string SweepReport(const std::string& dir) {
  const SweepView view = SweepView::Load(dir);
  const CsvTable& t = view.table();
  SweepEntries entries = EntriesOf(t);
  const std::set<std::string>& points = entries.points;
  std::vector<std::string>& names = entries.names;
  std::string out = fmt::format("# Sweep report: {}\n\n", ReportName(dir));
  out += fmt::format("{} points x {} algorithm entries; x axis: {}.", points.size(), names.size(),
                     view.XLabel());
  if (!view.baseline().empty()) out += fmt::format(" Baseline: {}.", view.BaselineTitle());
  out += "\n\n";

  const SweepGrid grid(view, names);
  out += "## Mean time per iteration\n\n";
  out += TimeTable(view, grid);
  if (!view.baseline().empty()) {
    out += fmt::format(
        "## Speed-up over {}\n\nTime per iteration of {} divided by the entry's "
        "(above 1: the entry is faster).\n\n",
        view.BaselineTitle(), view.BaselineTitle());
    out += grid.Render(
        [&](size_t r) {
          const std::optional<double> s = view.Speedup(r);
          return s ? fmt::format("{:.3g}x", *s) : std::string();
        },
        true);
    out += CrossoverSection(view);
  }
  out += FirstPointSection(view);
  if (t.HasNumbers("time_to_target_s")) {
    out += fmt::format("## Simulated time to reach {}\n\n{}\n\n", TargetText(t), kTargetRule);
    out += FewIterationsWarning(t);
    out += grid.Render([&](size_t r) { return MdSi(t.Number(r, "time_to_target_s"), "s"); }, false);
  }
  out += MdFigures(dir, {{"time_per_iteration", "mean time per iteration"},
                         {"speedup", "speed-up over the baseline"},
                         {"time_to_target", "time to target loss"}});
  return out;
}

}  // namespace commsim
