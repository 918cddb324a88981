#include "scenarios/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "analysis/csv.h"
#include "scenarios/json_config.h"
#include "scenarios/output_name.h"
#include "sim/check.h"
#include "sim/error.h"
#include "sim/hash.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string Shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

void CheckKeys(const json& obj, const std::string& pointer, const std::vector<std::string>& known,
               ErrorList& errors) {
  for (const auto& [key, value] : obj.items()) {
    bool ok = false;
    for (const std::string& k : known) ok = ok || k == key;
    if (ok) continue;
    const std::string hint = DidYouMean(key, known);
    errors.Add(JoinPointer(pointer, key),
               hint.empty() ? fmt::format("unknown key (known keys: {})", fmt::join(known, ", "))
                            : fmt::format("unknown key; did you mean \"{}\"?", hint));
  }
}

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
    errors.Add(pointer, fmt::format("expected [from, to, count], got {}", Shown(spec)));
    return;
  }
  double ends[2];
  Unit units[2];
  for (int i = 0; i < 2; ++i) {
    if (!ReadQuantity(spec[i], &units[i], &ends[i])) {
      errors.Add(JoinPointer(pointer, std::to_string(i)),
                 fmt::format("expected a number or a quantity such as \"10Mbps\", got {}",
                             Shown(spec[i])));
      return;
    }
  }
  if (units[0] != units[1]) {
    errors.Add(pointer, fmt::format("from and to have different units ({} and {})", Shown(spec[0]),
                                    Shown(spec[1])));
    return;
  }
  const json& n_json = spec[2];
  if (!n_json.is_number_integer() || n_json.get<int64_t>() < 1 || n_json.get<int64_t>() > 100000) {
    errors.Add(JoinPointer(pointer, "2"),
               fmt::format("expected a point count in [1, 100000], got {}", Shown(n_json)));
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
    double x =
        log ? std::pow(10.0, std::log10(ends[0]) + t * (std::log10(ends[1]) - std::log10(ends[0])))
            : ends[0] + t * (ends[1] - ends[0]);
    if (i == 0) x = ends[0];
    if (i == n - 1 && n > 1) x = ends[1];
    axis.values.push_back(NumberJson(x));
    axis.cells.push_back(FormatNumber(x));
  }
}

void ParseAxis(const json& a, const std::string& pointer, SweepAxis& axis, ErrorList& errors) {
  if (!a.is_object()) {
    errors.Add(pointer, fmt::format("expected an axis object {{\"pointer\": ..., \"values\": "
                                    "[...]}}, got {}",
                                    Shown(a)));
    return;
  }
  CheckKeys(a, pointer, {"name", "pointer", "values", "linspace", "logspace"}, errors);
  if (!a.contains("pointer") || !a["pointer"].is_string()) {
    errors.Add(JoinPointer(pointer, "pointer"),
               "expected a JSON pointer string such as \"/network/topology/server_bandwidth\"");
    return;
  }
  axis.pointer = a["pointer"].get<std::string>();
  std::vector<std::string> tokens;
  if (!SplitPointer(axis.pointer, &tokens)) {
    errors.Add(
        JoinPointer(pointer, "pointer"),
        fmt::format("expected a JSON pointer such as \"/workers\", got \"{}\"", axis.pointer));
    return;
  }
  axis.name = tokens.back();
  if (a.contains("name")) {
    if (!a["name"].is_string() || a["name"].get<std::string>().empty()) {
      errors.Add(JoinPointer(pointer, "name"), "expected a non-empty string");
    } else {
      axis.name = a["name"].get<std::string>();
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

}  // namespace

size_t Sweep::size() const {
  if (axes.empty()) return 0;
  if (zip) return axes.front().values.size();
  size_t n = 1;
  for (const SweepAxis& axis : axes) n *= axis.values.size();
  return n;
}

std::vector<size_t> Sweep::ValueIndices(size_t point) const {
  COMMSIM_CHECK(point < size(), "point {} of a sweep of {}", point, size());
  std::vector<size_t> indices(axes.size(), point);
  if (zip) return indices;
  for (size_t a = axes.size(); a-- > 0;) {
    indices[a] = point % axes[a].values.size();
    point /= axes[a].values.size();
  }
  return indices;
}

json Sweep::PointScenario(size_t point) const {
  json doc = base;
  const std::vector<size_t> indices = ValueIndices(point);
  for (size_t a = 0; a < axes.size(); ++a) {
    const std::string problem = SetAtPointer(doc, axes[a].pointer, axes[a].values[indices[a]]);
    if (!problem.empty()) {
      throw UserError(fmt::format("{}: point {}: {}: {}", file, point, axes[a].pointer, problem));
    }
  }
  return doc;
}

std::vector<std::string> Sweep::PointCells(size_t point) const {
  const std::vector<size_t> indices = ValueIndices(point);
  std::vector<std::string> cells;
  for (size_t a = 0; a < axes.size(); ++a) cells.push_back(axes[a].cells[indices[a]]);
  return cells;
}

std::string Sweep::DescribePoint(size_t point) const {
  const std::vector<std::string> cells = PointCells(point);
  std::string out;
  for (size_t a = 0; a < axes.size(); ++a) {
    out += fmt::format("{}{}={}", a ? ", " : "", axes[a].name, cells[a]);
  }
  return out;
}

Sweep ParseSweep(const json& doc, const std::string& origin, const std::string& dir) {
  ErrorList errors;
  Sweep sweep;
  sweep.file = origin;
  sweep.base_dir = dir;
  sweep.name = fs::path(origin).stem().string();
  if (!doc.is_object()) {
    errors.Add("", fmt::format("expected a sweep object {{\"base\": ..., \"axes\": [...]}}, got {}",
                               Shown(doc)));
    errors.ThrowIfAny(origin);
  }
  CheckKeys(doc, "", {"name", "description", "base", "set", "combine", "target_loss", "axes"},
            errors);
  if (doc.contains("name")) {
    if (doc["name"].is_string()) {
      sweep.name = doc["name"].get<std::string>();
    } else {
      errors.Add("/name", fmt::format("expected a string, got {}", Shown(doc["name"])));
    }
  }
  if (const std::string problem = OutputNameProblem(sweep.name); !problem.empty()) {
    errors.Add("/name", doc.contains("name") ? problem
                                             : problem + " (taken from the file name; give the "
                                                         "sweep a \"name\")");
  }
  if (!doc.contains("base")) {
    errors.Add("/base", "missing: a scenario file name or an inline scenario object");
  } else if (doc["base"].is_string()) {
    const fs::path path = fs::path(dir) / doc["base"].get<std::string>();
    sweep.base = LoadJsonFile(path.string());
    sweep.base_dir = path.parent_path().string();
  } else if (doc["base"].is_object()) {
    sweep.base = doc["base"];
  } else {
    errors.Add("/base",
               fmt::format("expected a scenario file name or object, got {}", Shown(doc["base"])));
  }
  if (doc.contains("set")) {
    if (!doc["set"].is_object()) {
      errors.Add("/set", "expected an object {\"/json/pointer\": value, ...}");
    } else {
      for (const auto& [pointer, value] : doc["set"].items()) {
        const std::string problem = SetAtPointer(sweep.base, pointer, value);
        if (!problem.empty()) errors.Add(JoinPointer("/set", pointer), problem);
      }
    }
  }
  if (doc.contains("combine")) {
    const json& c = doc["combine"];
    if (c == "zip") {
      sweep.zip = true;
    } else if (c != "cartesian") {
      errors.Add("/combine", fmt::format("expected \"cartesian\" or \"zip\", got {}", Shown(c)));
    }
  }
  if (doc.contains("target_loss")) {
    if (doc["target_loss"].is_number()) {
      sweep.target_loss = doc["target_loss"].get<double>();
    } else {
      errors.Add("/target_loss",
                 fmt::format("expected a number, got {}", Shown(doc["target_loss"])));
    }
  }
  if (!doc.contains("axes") || !doc["axes"].is_array() || doc["axes"].empty()) {
    errors.Add("/axes", "expected a non-empty array of axes");
  } else {
    std::set<std::string> names;
    const std::vector<std::string> reserved = {"point", "name", "algorithm", "family", "status"};
    for (size_t i = 0; i < doc["axes"].size(); ++i) {
      const std::string pointer = JoinPointer("/axes", std::to_string(i));
      SweepAxis axis;
      const size_t before = errors.size();
      ParseAxis(doc["axes"][i], pointer, axis, errors);
      if (errors.size() != before) continue;
      if (!names.insert(axis.name).second) {
        errors.Add(pointer,
                   fmt::format("axis name \"{}\" is used twice; give one a \"name\"", axis.name));
      }
      for (const std::string& r : reserved) {
        if (axis.name == r) {
          errors.Add(pointer, fmt::format("axis name \"{}\" is a sweep.csv column; give the axis "
                                          "another \"name\"",
                                          r));
        }
      }
      json probe = sweep.base;
      const std::string problem = SetAtPointer(probe, axis.pointer, axis.values.front());
      if (!problem.empty()) errors.Add(JoinPointer(pointer, "pointer"), problem);
      sweep.axes.push_back(std::move(axis));
    }
    if (!sweep.axes.empty()) {
      size_t points = 1;
      for (const SweepAxis& axis : sweep.axes) {
        // zip: the longest axis (unequal lengths are an error of their own below).
        const bool over = sweep.zip ? axis.values.size() > kMaxSweepPoints
                                    : __builtin_mul_overflow(points, axis.values.size(), &points) ||
                                          points > kMaxSweepPoints;
        if (over) {
          errors.Add("/axes", fmt::format("the sweep has more than {} points (a run each; "
                                          "cartesian axes multiply); use fewer values per axis{}",
                                          kMaxSweepPoints,
                                          sweep.zip ? "" : ", or \"combine\": \"zip\""));
          break;
        }
      }
    }
    if (sweep.zip) {
      for (size_t i = 1; i < sweep.axes.size(); ++i) {
        if (sweep.axes[i].values.size() != sweep.axes[0].values.size()) {
          errors.Add("/axes",
                     fmt::format("\"combine\": \"zip\" needs axes of equal length, got {} "
                                 "and {} values",
                                 sweep.axes[0].values.size(), sweep.axes[i].values.size()));
          break;
        }
      }
    }
  }
  errors.ThrowIfAny(origin);
  json axes = json::array();
  for (const SweepAxis& axis : sweep.axes) {
    axes.push_back({{"name", axis.name}, {"pointer", axis.pointer}, {"values", axis.values}});
  }
  sweep.canonical = {{"base", sweep.base},
                     {"axes", axes},
                     {"combine", sweep.zip ? "zip" : "cartesian"},
                     {"target_loss", sweep.target_loss ? json(*sweep.target_loss) : json()}};
  sweep.fingerprint = fmt::format("{:016x}", Fnv1a64(sweep.canonical.dump()));
  return sweep;
}

Sweep LoadSweep(const std::string& file) {
  const json doc = LoadJsonFile(file);
  return ParseSweep(doc, file, fs::path(file).parent_path().string());
}

}  // namespace commsim
