#include "analysis/sweep_view.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string_view>
#include <utility>

#include "base/error.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

}  // namespace

std::string FormatSi(double x, const std::string& unit) {
  if (unit.empty() || !std::isfinite(x) || x == 0) return FormatNumber(x);
  static constexpr struct {
    double factor;
    const char* prefix;
  } kPrefixes[] = {{1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},
                   {1, ""},     {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}};
  for (const auto& p : kPrefixes) {
    if (std::fabs(x) >= p.factor * 0.9995 || p.factor == 1e-9) {
      return fmt::format("{:.3g} {}{}", x / p.factor, p.prefix, unit);
    }
  }
  return FormatNumber(x);
}

SweepView SweepView::Load(const std::string& dir) {
  SweepView view;
  view.table_ = ReadCsvFile((fs::path(dir) / "sweep.csv").string());
  const CsvTable axes = ReadCsvFile((fs::path(dir) / "axes.csv").string());
  if (axes.size() == 0) throw UserError(fmt::format("{}/axes.csv: no axes", dir));
  view.x_name_ = axes.Cell(0, "name");
  view.x_unit_ = axes.Cell(0, "unit");
  view.x_pointer_ = axes.Cell(0, "pointer");
  // Other axes split the rows into curves, unless they move with the first axis (zipped axes).
  for (size_t a = 1; a < axes.size(); ++a) {
    const std::string& name = axes.Cell(a, "name");
    std::map<std::string, std::string> value_at;
    bool follows_x = true;
    for (size_t r = 0; r < view.table_.size(); ++r) {
      auto [it, inserted] =
          value_at.emplace(view.table_.Cell(r, view.x_name_), view.table_.Cell(r, name));
      follows_x = follows_x && (inserted || it->second == view.table_.Cell(r, name));
    }
    if (!follows_x) view.other_axes_.push_back(name);
  }
  for (const char* column : {"name", "algorithm", "mean_iter_time_s"}) {
    if (!view.table_.Has(column)) {
      throw UserError(fmt::format("{}/sweep.csv: missing column \"{}\"", dir, column));
    }
  }
  if (!view.table_.Has(view.x_name_)) {
    throw UserError(fmt::format("{}/sweep.csv: missing axis column \"{}\"", dir, view.x_name_));
  }
  view.ReadX(axes.Cell(0, "scale") == "log");
  view.GroupCurves();
  view.ReadBaselines();
  return view;
}

void SweepView::ReadX(bool log_axis) {
  bool numeric = true;
  std::vector<double> xs;
  for (size_t r = 0; r < table_.size(); ++r) {
    const std::optional<double> x = table_.Number(r, x_name_);
    numeric = numeric && x && std::isfinite(*x);
    if (x) xs.push_back(*x);
    const std::string& cell = table_.Cell(r, x_name_);
    if (std::find(x_categories_.begin(), x_categories_.end(), cell) == x_categories_.end()) {
      x_categories_.push_back(cell);
    }
  }
  if (numeric) x_categories_.clear();
  x_log_ = numeric && (log_axis || [&] {
             double lo = INFINITY, hi = 0;
             for (double x : xs) {
               if (x <= 0) return false;
               lo = std::min(lo, x);
               hi = std::max(hi, x);
             }
             return hi >= 100 * lo;
           }());
}

void SweepView::GroupCurves() {
  std::vector<std::string> groups;
  std::map<std::pair<std::string, int>, size_t> curve_of;
  for (size_t r = 0; r < table_.size(); ++r) {
    std::string group_text;
    for (const std::string& axis : other_axes_) {
      group_text += fmt::format(", {}={}", axis, table_.Cell(r, axis));
    }
    auto g = std::find(groups.begin(), groups.end(), group_text);
    if (g == groups.end()) g = groups.insert(groups.end(), group_text);
    const int group = static_cast<int>(g - groups.begin());
    const std::string& name = table_.Cell(r, "name");
    auto [it, inserted] = curve_of.emplace(std::make_pair(name, group), curves_.size());
    if (inserted) {
      curves_.push_back({name + group_text, name, table_.Cell(r, "algorithm"), group, {}});
    }
    curves_[it->second].rows.push_back(r);
  }
  for (SweepCurve& c : curves_) {
    std::stable_sort(c.rows.begin(), c.rows.end(), [&](size_t a, size_t b) { return X(a) < X(b); });
  }
}

void SweepView::ReadBaselines() {
  // The baselines are the labels the runner wrote in the `baseline` column (one per family).
  for (size_t r = 0; r < table_.size() && table_.Has("baseline"); ++r) {
    const std::string& base = table_.Cell(r, "baseline");
    if (!base.empty() &&
        std::find(baselines_.begin(), baselines_.end(), base) == baselines_.end()) {
      baselines_.push_back(base);
    }
  }
  if (!baselines_.empty()) baseline_ = baselines_.front();
}

double SweepView::X(size_t row) const {
  const std::string& cell = table_.Cell(row, x_name_);
  if (x_categories_.empty()) return *table_.Number(row, x_name_);
  return static_cast<double>(std::find(x_categories_.begin(), x_categories_.end(), cell) -
                             x_categories_.begin());
}

std::string SweepView::XText(double x) const {
  if (!x_categories_.empty()) {
    const size_t i = static_cast<size_t>(x);
    return i < x_categories_.size() ? x_categories_[i] : "";
  }
  return FormatSi(x, x_unit_);
}

std::string SweepView::XLabel() const {
  if (!x_unit_.empty()) return fmt::format("{} ({})", x_name_, x_unit_);
  // The usual letter of a step size or algorithm parameter, by the pointer's last part.
  static constexpr std::pair<std::string_view, std::string_view> kSymbols[] = {
      {"/step/size", "γ"}, {"/gamma_c", "γ"}, {"/gamma", "γ"},  {"/alpha", "α"},
      {"/beta", "β"},      {"/eta", "η"},     {"/lambda", "λ"}, {"/rho", "ρ"}};
  for (const auto& [suffix, symbol] : kSymbols) {
    if (x_pointer_.ends_with(suffix)) return fmt::format("{} ({})", x_name_, symbol);
  }
  return x_name_;
}

std::string SweepView::BaselineTitle() const {
  if (baselines_.size() <= 1) return baseline_;
  return fmt::format("{} (by family)", fmt::join(baselines_, " or "));
}

bool SweepView::IsBaseline(const std::string& name) const {
  return std::find(baselines_.begin(), baselines_.end(), name) != baselines_.end();
}

std::string SweepView::BaselineOf(size_t row) const {
  return table_.Has("baseline") ? table_.Cell(row, "baseline") : "";
}

std::optional<double> SweepView::Speedup(size_t row) const {
  const std::string baseline = BaselineOf(row);
  if (baseline.empty()) return std::nullopt;
  const std::string& point = table_.Cell(row, "point");
  const std::optional<double> t = table_.Number(row, "mean_iter_time_s");
  for (size_t r = 0; r < table_.size(); ++r) {
    if (table_.Cell(r, "point") != point || table_.Cell(r, "name") != baseline) continue;
    const std::optional<double> base = table_.Number(r, "mean_iter_time_s");
    if (!t || !base || !(*t > 0) || !std::isfinite(*base)) return std::nullopt;
    return *base / *t;
  }
  return std::nullopt;
}

std::vector<Crossing> SweepView::Crossings(const SweepCurve& curve) const {
  std::vector<Crossing> out;
  std::optional<double> prev_s;
  double prev_x = 0;
  for (const size_t r : curve.rows) {
    const std::optional<double> s = Speedup(r);
    if (!s || !(*s > 0)) continue;
    const double x = X(r);
    if (prev_s && ((*prev_s > 1) != (*s > 1)) && x != prev_x) {
      const double a = std::log(*prev_s), b = std::log(*s);
      const double t = a == b ? 0.5 : a / (a - b);
      const double cx = x_log_ ? std::exp(std::log(prev_x) + t * (std::log(x) - std::log(prev_x)))
                               : prev_x + t * (x - prev_x);
      out.push_back({cx, *prev_s > 1});
    }
    prev_s = s;
    prev_x = x;
  }
  return out;
}

}  // namespace commsim
