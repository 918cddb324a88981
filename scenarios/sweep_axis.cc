#include "scenarios/sweep_axis.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <set>

#include "analysis/csv.h"
#include "scenarios/json_config.h"

namespace commsim {
namespace {

using nlohmann::json;

// A number, or a string with a unit suffix ("10Mbps"). The unit is detected from the suffix.
bool ReadQuantity(const json& v, Unit* unit, double* x) {
  if (v.is_number()) {
    *unit = Unit::kNone;
    *x = v.get<double>();
    return std::isfinite(*x);
  }
  if (!v.is_string()) return false;
  const std::string text = v.get<std::string>();
  char* end = nullptr;
  const double plain = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size()) {
    *unit = Unit::kNone;
    *x = plain;
    return std::isfinite(plain);
  }
  for (Unit u : {Unit::kBitsPerSecond, Unit::kSeconds, Unit::kBits, Unit::kFlopsPerSecond}) {
    std::string error;
    const std::optional<double> q = ParseQuantity(v, u, &error);
    if (q && std::isfinite(*q)) {
      *unit = u;
      *x = *q;
      return true;
    }
  }
  return false;
}

json NumberJson(double x) {
  if (std::floor(x) == x && std::fabs(x) < 9.0e15) return json(static_cast<int64_t>(x));
  return json(x);
}

std::string ValueCell(const json& v) {
  if (v.is_string()) {
    Unit unit;
    double x;
    if (ReadQuantity(v, &unit, &x)) return FormatNumber(x);
    return v.get<std::string>();
  }
  if (v.is_number()) return FormatNumber(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

void ParseRange(const json& spec, const std::string& pointer, bool log, SweepAxis& axis,
                ErrorList& errors) {
  if (!spec.is_array() || spec.size() != 3) {
    errors.Add(pointer, fmt::format("expected [from, to, count], got {}", ShownJson(spec)));
    return;
  }
  double ends[2];
  Unit units[2];
  for (int i = 0; i < 2; ++i) {
    if (!ReadQuantity(spec[i], &units[i], &ends[i])) {
      errors.Add(JoinPointer(pointer, std::to_string(i)),
                 fmt::format("expected a number or a quantity such as \"10Mbps\", got {}",
                             ShownJson(spec[i])));
      return;
    }
  }
  if (units[0] != units[1]) {
    errors.Add(pointer, fmt::format("from and to have different units ({} and {})",
                                    ShownJson(spec[0]), ShownJson(spec[1])));
    return;
  }
  const json& n_json = spec[2];
  if (!n_json.is_number_integer() || n_json.get<int64_t>() < 1 || n_json.get<int64_t>() > 100000) {
    errors.Add(JoinPointer(pointer, "2"),
               fmt::format("expected a point count in [1, 100000], got {}", ShownJson(n_json)));
    return;
  }
  if (log && (ends[0] <= 0 || ends[1] <= 0)) {
    errors.Add(pointer, "logspace needs positive from and to");
    return;
  }
  const int64_t n = n_json.get<int64_t>();
  axis.unit = units[0];
  axis.scale = log ? "log" : "linear";
  for (int64_t i = 0; i < n; ++i) {
    const double t = n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1);
    // Linear: from + (i x (to - from)) / (n - 1), each operation exact when the step is a whole
    // number (i x span and span / (n - 1) are then integers below 2^53), so [1, 250, 250] gives
    // exactly 1, 2, ..., 250 on an integer key.
    double x =
        log ? std::pow(10.0, std::log10(ends[0]) + t * (std::log10(ends[1]) - std::log10(ends[0])))
        : n == 1
            ? ends[0]
            : ends[0] + static_cast<double>(i) * (ends[1] - ends[0]) / static_cast<double>(n - 1);
    if (i == 0) x = ends[0];
    if (i == n - 1 && n > 1) x = ends[1];
    axis.values.push_back(NumberJson(x));
    axis.cells.push_back(FormatNumber(x));
  }
}

// An axis's scalar keys; its values ("values", "linspace" or "logspace") are read by hand.
struct AxisConfig final : ConfigBase<AxisConfig> {
  std::string name;
  std::string pointer;
  void Describe(ParamVisitor& v) override {
    v.Text("pointer", pointer, {}, "JSON pointer of the scenario value the axis sets");
    v.Text("name", name, {}, "column name in sweep.csv (default: the pointer's last token)");
  }
};

void ParseAxis(const json& a, const std::string& pointer, SweepAxis& axis, ErrorList& errors) {
  if (!a.is_object()) {
    errors.Add(pointer, fmt::format("expected an axis object {{\"pointer\": ..., \"values\": "
                                    "[...]}}, got {}",
                                    ShownJson(a)));
    return;
  }
  AxisConfig config;
  const size_t before = errors.size();
  ReadConfig(a, pointer, config, errors, {"values", "linspace", "logspace"});
  if (errors.size() != before) return;
  if (!a.contains("pointer")) {
    errors.Add(JoinPointer(pointer, "pointer"),
               "missing: a JSON pointer such as \"/network/topology/server_bandwidth\"");
    return;
  }
  axis.pointer = config.pointer;
  std::vector<std::string> tokens;
  if (!SplitPointer(axis.pointer, &tokens)) {
    errors.Add(
        JoinPointer(pointer, "pointer"),
        fmt::format("expected a JSON pointer such as \"/workers\", got \"{}\"", axis.pointer));
    return;
  }
  axis.name = tokens.back();
  if (a.contains("name")) {
    if (config.name.empty()) {
      errors.Add(JoinPointer(pointer, "name"), "expected a non-empty string");
    } else {
      axis.name = config.name;
    }
  }
  const int forms = a.contains("values") + a.contains("linspace") + a.contains("logspace");
  if (forms != 1) {
    errors.Add(pointer, "expected exactly one of \"values\", \"linspace\", \"logspace\"");
    return;
  }
  if (a.contains("values")) {
    const json& values = a["values"];
    if (!values.is_array() || values.empty()) {
      errors.Add(JoinPointer(pointer, "values"), "expected a non-empty array of values");
      return;
    }
    std::set<Unit> units;
    for (const json& v : values) {
      Unit unit;
      double x;
      if (ReadQuantity(v, &unit, &x) && unit != Unit::kNone) units.insert(unit);
      axis.values.push_back(v);
      axis.cells.push_back(ValueCell(v));
    }
    if (units.size() == 1) axis.unit = *units.begin();
    if (units.size() > 1) errors.Add(JoinPointer(pointer, "values"), "values mix units");
  } else {
    const bool log = a.contains("logspace");
    ParseRange(a[log ? "logspace" : "linspace"],
               JoinPointer(pointer, log ? "logspace" : "linspace"), log, axis, errors);
  }
}

// Checks across axes: names unique and not a sweep.csv column, each pointer settable in `base`,
// the point count within kMaxSweepPoints, zip axes of equal length.
void CheckAxes(const std::vector<SweepAxis>& axes, const std::vector<std::string>& pointers,
               const json& base, bool zip, ErrorList& errors) {
  std::set<std::string> names;
  const std::vector<std::string> reserved = {"point", "name", "algorithm", "family", "status"};
  for (size_t i = 0; i < axes.size(); ++i) {
    const SweepAxis& axis = axes[i];
    if (!names.insert(axis.name).second) {
      errors.Add(pointers[i],
                 fmt::format("axis name \"{}\" is used twice; give one a \"name\"", axis.name));
    }
    for (const std::string& r : reserved) {
      if (axis.name == r) {
        errors.Add(pointers[i], fmt::format("axis name \"{}\" is a sweep.csv column; give the "
                                            "axis another \"name\"",
                                            r));
      }
    }
    json probe = base;
    const std::string problem = SetAtPointer(probe, axis.pointer, axis.values.front());
    if (!problem.empty()) errors.Add(JoinPointer(pointers[i], "pointer"), problem);
  }
  size_t points = 1;
  for (const SweepAxis& axis : axes) {
    // zip: the longest axis (unequal lengths are an error of their own below).
    const bool over = zip ? axis.values.size() > kMaxSweepPoints
                          : __builtin_mul_overflow(points, axis.values.size(), &points) ||
                                points > kMaxSweepPoints;
    if (over) {
      errors.Add("/axes", fmt::format("the sweep has more than {} points (a run each; cartesian "
                                      "axes multiply); use fewer values per axis{}",
                                      kMaxSweepPoints, zip ? "" : ", or \"combine\": \"zip\""));
      break;
    }
  }
  for (size_t i = 1; zip && i < axes.size(); ++i) {
    if (axes[i].values.size() != axes[0].values.size()) {
      errors.Add("/axes", fmt::format("\"combine\": \"zip\" needs axes of equal length, got {} "
                                      "and {} values",
                                      axes[0].values.size(), axes[i].values.size()));
      break;
    }
  }
}

}  // namespace

std::vector<SweepAxis> ParseAxes(const json& axes, const json& base, bool zip, ErrorList& errors) {
  std::vector<SweepAxis> out;
  if (!axes.is_array() || axes.empty()) {
    errors.Add("/axes", "expected a non-empty array of axes");
    return out;
  }
  std::vector<std::string> pointers;
  for (size_t i = 0; i < axes.size(); ++i) {
    const std::string pointer = JoinPointer("/axes", std::to_string(i));
    SweepAxis axis;
    const size_t before = errors.size();
    ParseAxis(axes[i], pointer, axis, errors);
    if (errors.size() != before) continue;
    out.push_back(std::move(axis));
    pointers.push_back(pointer);
  }
  if (!out.empty()) CheckAxes(out, pointers, base, zip, errors);
  return out;
}

}  // namespace commsim
