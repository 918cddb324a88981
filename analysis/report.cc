#include "analysis/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "analysis/csv.h"
#include "analysis/gnuplot.h"
#include "analysis/html_report.h"
#include "analysis/sweep_view.h"
#include "analysis/writers.h"
#include "sim/error.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// A table row; cells hold labels from scenario and sweep files, so they are kept on one line
// and their bars escaped.
std::string Row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) {
    std::string cell;
    for (const char ch : SanitizeText(c)) {
      if (ch == '|') cell += '\\';
      cell += ch;
    }
    out += " " + cell + " |";
  }
  return out + "\n";
}

std::string Table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows) {
  std::string out = Row(header);
  out += "|";
  for (size_t i = 0; i < header.size(); ++i) out += i == 0 ? "---|" : "---:|";
  out += "\n";
  for (const auto& r : rows) out += Row(r);
  return out + "\n";
}

std::string Num(std::optional<double> x) {
  if (!x) return "";
  if (!std::isfinite(*x)) return FormatNumber(*x);
  return fmt::format("{:.4g}", *x);
}
std::string Si(std::optional<double> x, const char* unit) { return x ? FormatSi(*x, unit) : ""; }
std::string Percent(double x) { return fmt::format("{:.1f}%", 100 * x); }

// Markdown images for the plots that exist, in the given order.
std::string Figures(const std::string& dir,
                    const std::vector<std::pair<std::string, std::string>>& plots) {
  std::string out;
  for (const auto& [name, caption] : plots) {
    if (!fs::exists(fs::path(dir) / "plots" / fmt::format("{}.png", name))) continue;
    out += fmt::format("![{}](plots/{}.png)\n\n", caption, name);
  }
  if (out.empty()) out = "No plots yet: run `commsim plot` on this folder, then report again.\n\n";
  return "## Plots\n\n" + out;
}

// "loss <= 0.5" or "test accuracy >= 0.9" when every row has the same target, else a phrase.
std::string TargetText(const CsvTable& t) {
  const bool accuracy = t.Cell(0, "target_metric") == "test_accuracy";
  std::string value = t.Cell(0, "target_value");
  for (size_t r = 1; r < t.size(); ++r) {
    if (t.Cell(r, "target_value") != value) value.clear();
  }
  return fmt::format("{} {} {}", accuracy ? "test accuracy" : "loss", accuracy ? ">=" : "<=",
                     value.empty() ? "the point's target" : Num(t.Number(0, "target_value")));
}

constexpr const char* kTargetRule =
    "An entry reaches the target at its first recorded iteration that meets it. The target is the "
    "scenario's (or sweep's) target_loss or target_accuracy when given, else the largest final "
    "loss among the entries that did not diverge, so each of them reaches it; with fewer than two "
    "such entries, or fewer than two recorded iterations, there is none.";

// The run folder's time-to-target section ("" when the run has no target).
std::string TimeToTargetSection(const CsvTable& s) {
  if (s.size() == 0 || !s.HasNumbers("target_value")) return "";
  std::string out = fmt::format("## Time to target: {}\n\n{}\n\n", TargetText(s), kTargetRule);
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < s.size(); ++r) {
    const bool reached = !s.Cell(r, "time_to_target_s").empty();
    rows.push_back({s.Cell(r, "name"), s.Cell(r, "status"),
                    reached ? Si(s.Number(r, "time_to_target_s"), "s") : "not reached",
                    reached ? Si(s.Number(r, "bits_to_target"), "bit") : ""});
  }
  return out + Table({"algorithm", "status", "simulated time", "wire bits"}, rows);
}

}  // namespace

std::string RunReport(const std::string& dir) {
  const CsvTable s = ReadCsvFile((fs::path(dir) / "summary.csv").string());
  std::string out =
      fmt::format("# Run report: {}\n\n", SanitizeText(fs::path(dir).filename().string()));
  // Each entry is compared with its family's full-precision entry (sgd, or dpsgd).
  const bool baselines = s.HasNumbers("bits_fraction_of_baseline");
  out += "## Communication\n\n";
  std::vector<std::string> header = {"algorithm",         "registry",   "status",
                                     "iterations",        "total bits", "uplink bits/iter",
                                     "downlink bits/iter"};
  if (baselines) header.insert(header.end(), {"baseline", "bits vs baseline", "reduction"});
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < s.size(); ++r) {
    const double iterations = s.Number(r, "iterations").value_or(0);
    auto per_iter = [&](const char* column) -> std::optional<double> {
      const std::optional<double> bits = s.Number(r, column);
      if (!bits || iterations <= 0) return std::nullopt;
      return *bits / iterations;
    };
    std::vector<std::string> row = {s.Cell(r, "name"),
                                    s.Cell(r, "algorithm"),
                                    s.Cell(r, "status"),
                                    s.Cell(r, "iterations"),
                                    Si(s.Number(r, "total_bits"), "bit"),
                                    Si(per_iter("bits_up"), "bit"),
                                    Si(per_iter("bits_down"), "bit")};
    if (baselines) {
      row.push_back(s.Cell(r, "baseline"));
      if (const std::optional<double> f = s.Number(r, "bits_fraction_of_baseline")) {
        row.push_back(Percent(*f));
        row.push_back(Percent(1 - *f));
      } else {
        row.insert(row.end(), {"", ""});
      }
    }
    rows.push_back(std::move(row));
  }
  out += Table(header, rows);

  out += "## Time and quality\n\n";
  header = {"algorithm",          "time/iter",      "compute/iter",
            "communication/iter", "simulated time", "final loss"};
  const auto optional_columns = SummaryReportColumns();
  const bool suboptimality = s.HasNumbers("optimal_loss");
  if (suboptimality) header.push_back("final F(x) − F*");
  for (const auto& [column, title] : optional_columns) {
    if (s.HasNumbers(column)) header.push_back(title);
  }
  rows.clear();
  for (size_t r = 0; r < s.size(); ++r) {
    std::vector<std::string> row = {s.Cell(r, "name"),
                                    Si(s.Number(r, "mean_iter_time_s"), "s"),
                                    Si(s.Number(r, "mean_compute_time_s"), "s"),
                                    Si(s.Number(r, "mean_comm_time_s"), "s"),
                                    Si(s.Number(r, "sim_time_s"), "s"),
                                    Num(s.Number(r, "final_loss"))};
    if (suboptimality) {
      const std::optional<double> loss = s.Number(r, "final_loss");
      const std::optional<double> f_star = s.Number(r, "optimal_loss");
      row.push_back(loss && f_star ? Num(*loss - *f_star) : "");
    }
    for (const auto& [column, title] : optional_columns) {
      if (s.HasNumbers(column)) row.push_back(Num(s.Number(r, column)));
    }
    rows.push_back(std::move(row));
  }
  out += Table(header, rows);
  out += TimeToTargetSection(s);
  const std::string quality = suboptimality ? "suboptimality F(x) − F*" : "training loss";
  out += Figures(dir, {{"loss_vs_iteration", quality + " vs iteration"},
                       {"dist_vs_iteration", "squared distance to the optimum vs iteration"},
                       {"loss_vs_bits", quality + " vs wire bits"},
                       {"loss_vs_time", quality + " vs simulated time"},
                       {"accuracy_vs_bits", "test accuracy vs bits"},
                       {"consensus_vs_iteration", "consensus distance vs iteration"},
                       {"bits_per_iteration", "bits per iteration"}});
  return out;
}

std::string SweepReport(const std::string& dir) {
  const SweepView view = SweepView::Load(dir);
  const CsvTable& t = view.table();
  std::set<std::string> points;
  std::vector<std::string> names;
  std::map<std::string, std::string> algorithm_of;
  for (size_t r = 0; r < t.size(); ++r) {
    points.insert(t.Cell(r, "point"));
    algorithm_of[t.Cell(r, "name")] = t.Cell(r, "algorithm");
    if (std::find(names.begin(), names.end(), t.Cell(r, "name")) == names.end()) {
      names.push_back(t.Cell(r, "name"));
    }
  }
  std::string out =
      fmt::format("# Sweep report: {}\n\n", SanitizeText(fs::path(dir).filename().string()));
  out += fmt::format("{} points x {} algorithm entries; x axis: {}.", points.size(), names.size(),
                     view.XLabel());
  if (!view.baseline().empty()) out += fmt::format(" Baseline: {}.", view.BaselineTitle());
  out += "\n\n";

  // Rows: (group, x) in curve order; columns: entry names.
  std::vector<std::pair<int, double>> keys;
  std::map<std::pair<int, std::string>, std::map<double, size_t>> cell_row;  // (group,name)->x->row
  std::map<int, std::string> group_text;
  for (const SweepCurve& c : view.curves()) {
    group_text[c.group] = c.label.substr(c.name.size());
    for (const size_t r : c.rows) {
      cell_row[{c.group, c.name}][view.X(r)] = r;
      if (std::find(keys.begin(), keys.end(), std::make_pair(c.group, view.X(r))) == keys.end()) {
        keys.emplace_back(c.group, view.X(r));
      }
    }
  }
  std::sort(keys.begin(), keys.end());
  auto grid = [&](const std::function<std::string(size_t)>& value, bool skip_baseline) {
    std::vector<std::string> header = {view.x_name()};
    for (const std::string& n : names) {
      if (skip_baseline && algorithm_of[n] == view.baseline()) continue;
      header.push_back(n);
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto& [group, x] : keys) {
      std::vector<std::string> row = {view.XText(x) + group_text[group]};
      for (size_t i = 1; i < header.size(); ++i) {
        auto curve = cell_row.find({group, header[i]});
        std::string cell;
        if (curve != cell_row.end()) {
          auto it = curve->second.find(x);
          if (it != curve->second.end()) cell = value(it->second);
        }
        row.push_back(cell);
      }
      rows.push_back(std::move(row));
    }
    return Table(header, rows);
  };

  out += "## Mean time per iteration\n\n";
  out += grid([&](size_t r) { return Si(t.Number(r, "mean_iter_time_s"), "s"); }, false);
  if (!view.baseline().empty()) {
    out += fmt::format(
        "## Speed-up over {}\n\nTime per iteration of {} divided by the entry's "
        "(above 1: the entry is faster).\n\n",
        view.BaselineTitle(), view.BaselineTitle());
    out += grid(
        [&](size_t r) {
          const std::optional<double> s = view.Speedup(r);
          return s ? fmt::format("{:.3g}x", *s) : std::string();
        },
        true);
    out += "## Crossover: where compression stops paying off\n\n";
    std::vector<std::vector<std::string>> rows;
    for (const SweepCurve& c : view.curves()) {
      if (c.algorithm == view.baseline()) continue;
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
        verdict +=
            fmt::format("{} above {}", x.stops_paying ? "slower" : "faster", view.XText(x.x));
      }
      if (crossings.empty()) {
        verdict = *first > 1 ? "faster over the whole range" : "never faster in this range";
      }
      const double lo = view.X(c.rows.front()), hi = view.X(c.rows.back());
      rows.push_back({c.label, verdict, fmt::format("{:.3g}x at {}", *first, view.XText(lo)),
                      fmt::format("{:.3g}x at {}", *last, view.XText(hi))});
    }
    out += Table({"algorithm", "compared with " + view.BaselineTitle(), "speed-up at low end",
                  "speed-up at high end"},
                 rows);
  }

  // Bits and quality do not depend on the x axis for synchronous algorithms: show the first point.
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
        Si(bits && iterations > 0 ? std::optional<double>(*bits / iterations) : std::nullopt,
           "bit")};
    if (baselines) {
      const std::optional<double> f = t.Number(r, "bits_fraction_of_baseline");
      row.push_back(t.Cell(r, "baseline"));
      row.push_back(f ? Percent(1 - *f) : "");
    }
    row.push_back(Num(t.Number(r, "final_loss")));
    if (t.HasNumbers("final_test_accuracy")) row.push_back(Num(t.Number(r, "final_test_accuracy")));
    rows.push_back(std::move(row));
  }
  out += Table(header, rows);
  if (t.HasNumbers("time_to_target_s")) {
    out += fmt::format("## Simulated time to reach {}\n\n{}\n\n", TargetText(t), kTargetRule);
    out += grid([&](size_t r) { return Si(t.Number(r, "time_to_target_s"), "s"); }, false);
  }
  out += Figures(dir, {{"time_per_iteration", "mean time per iteration"},
                       {"speedup", "speed-up over the baseline"},
                       {"time_to_target", "time to target loss"}});
  return out;
}

std::string WriteReport(const std::string& dir, const std::string& generator) {
  std::string text;
  if (fs::exists(fs::path(dir) / "sweep.csv")) {
    text = SweepReport(dir);
  } else if (fs::exists(fs::path(dir) / "summary.csv")) {
    text = RunReport(dir);
  } else {
    throw UserError(
        fmt::format("{}: neither a run folder (summary.csv) nor a sweep folder (sweep.csv)", dir));
  }
  const std::string path = (fs::path(dir) / "report.md").string();
  WriteFileAtomic(path, text);
  WriteFileAtomic((fs::path(dir) / "report.html").string(), HtmlReport(dir, text, generator));
  return path;
}

}  // namespace commsim
