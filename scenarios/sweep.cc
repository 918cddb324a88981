#include "scenarios/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "base/check.h"
#include "base/error.h"
#include "base/hash.h"
#include "scenarios/json_config.h"
#include "scenarios/output_name.h"
#include "scenarios/sweep_axis.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A sweep file's scalar keys; "base", "set" and "axes" hold JSON and are read by hand.
struct SweepFile final : ConfigBase<SweepFile> {
  std::string name;  // default: the file's stem
  std::string description;
  std::string combine = "cartesian";
  double target_loss = 0;  // read only when the key is present (optional)
  void Describe(ParamVisitor& v) override {
    static constexpr std::string_view kCombine[] = {"cartesian", "zip"};
    v.Text("name", name, {},
           "sweep name; results go to results/<name>/ (default: the file's stem)");
    v.Text("description", description, {}, "free text for the reader; not used");
    v.Text("combine", combine, kCombine,
           "cartesian: every combination of axis values; zip: the axes advance together");
    v.Real("target_loss", target_loss, Range::Open(-1e300, 1e300),
           "time to target: the loss to reach at every point (default: as for a scenario)");
  }
};

// The base scenario (a file relative to `dir`, or inline) with the "set" overrides applied.
void ReadBase(const json& doc, const std::string& dir, Sweep& sweep, ErrorList& errors) {
  if (!doc.contains("base")) {
    errors.Add("/base", "missing: a scenario file name or an inline scenario object");
  } else if (doc["base"].is_string()) {
    const fs::path path = fs::path(dir) / doc["base"].get<std::string>();
    sweep.base = LoadJsonFile(path.string());
    sweep.base_dir = path.parent_path().string();
  } else if (doc["base"].is_object()) {
    sweep.base = doc["base"];
  } else {
    errors.Add("/base", fmt::format("expected a scenario file name or object, got {}",
                                    ShownJson(doc["base"])));
  }
  if (!doc.contains("set")) return;
  if (!doc["set"].is_object()) {
    errors.Add("/set", "expected an object {\"/json/pointer\": value, ...}");
    return;
  }
  for (const auto& [pointer, value] : doc["set"].items()) {
    const std::string problem = SetAtPointer(sweep.base, pointer, value);
    if (!problem.empty()) errors.Add(JoinPointer("/set", pointer), problem);
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
  if (!doc.is_object()) {
    errors.Add("", fmt::format("expected a sweep object {{\"base\": ..., \"axes\": [...]}}, got {}",
                               ShownJson(doc)));
    errors.ThrowIfAny(origin);
  }
  SweepFile file;
  file.name = fs::path(origin).stem().string();
  ReadConfig(doc, "", file, errors, {"base", "set", "axes"});
  sweep.name = file.name;
  if (const std::string problem = OutputNameProblem(sweep.name); !problem.empty()) {
    errors.Add("/name", doc.contains("name") ? problem
                                             : problem +
                                                   " (taken from the file name; give the "
                                                   "sweep a \"name\")");
  }
  sweep.zip = file.combine == "zip";
  if (doc.contains("target_loss")) sweep.target_loss = file.target_loss;
  ReadBase(doc, dir, sweep, errors);
  sweep.axes =
      ParseAxes(doc.contains("axes") ? doc["axes"] : json(), sweep.base, sweep.zip, errors);
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
