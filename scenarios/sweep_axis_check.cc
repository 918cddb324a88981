#include "scenarios/sweep_axis_check.h"

#include <fmt/format.h>

#include "base/error.h"
#include "scenarios/json_config.h"
#include "scenarios/scenario.h"

namespace commsim {
namespace {

using nlohmann::json;

// What each entry of `doc` runs, as text (equal text: the same run); with `labels`, also the
// entries' labels.
std::vector<std::string> EntryRuns(const Sweep& sweep, const json& doc,
                                   std::vector<std::string>* labels = nullptr) {
  const Scenario s = ParseScenario(doc, "scenario", sweep.base_dir);
  json common = s.resolved;
  common.erase("name");
  common.erase("description");
  common.erase("algorithms");
  json without_topology = common;
  if (without_topology.contains("network")) without_topology["network"].erase("topology");
  std::vector<std::string> out;
  for (const AlgorithmEntry& e : s.algorithms) {
    if (labels != nullptr) labels->push_back(e.label);
  }
  for (const json& entry : s.resolved["algorithms"]) {
    const json& shared = entry.contains("topology") ? without_topology : common;
    out.push_back(shared.dump() + entry.dump());
  }
  return out;
}

}  // namespace

std::vector<std::string> SweepAxisNotes(const Sweep& sweep) {
  std::vector<std::string> notes;
  if (sweep.size() == 0) return notes;
  const json first = sweep.PointScenario(0);
  std::vector<std::string> labels;
  const std::vector<std::string> at_first = EntryRuns(sweep, first, &labels);
  for (size_t a = 0; a < sweep.axes.size(); ++a) {
    const SweepAxis& axis = sweep.axes[a];
    if (axis.values.size() < 2) continue;
    std::vector<bool> changed(at_first.size(), false);
    for (size_t v = 1; v < axis.values.size(); ++v) {
      json doc = first;
      SetAtPointer(doc, axis.pointer, axis.values[v]);
      const std::vector<std::string> runs = EntryRuns(sweep, doc);
      for (size_t e = 0; e < changed.size(); ++e) {
        if (runs.size() != at_first.size() || runs[e] != at_first[e]) changed[e] = true;
      }
    }
    std::vector<std::string> same;
    for (size_t e = 0; e < changed.size(); ++e) {
      if (!changed[e]) same.push_back(labels[e]);
    }
    const std::string where =
        fmt::format("{}: /axes/{}: axis {} ({})", sweep.file, a, axis.name, axis.pointer);
    if (same.size() == changed.size()) {
      throw UserError(fmt::format(
          "{} changes nothing any entry runs (every point would repeat one result); entries with "
          "their own topology read only the links their kind has",
          where));
    }
    if (!same.empty()) {
      notes.push_back(fmt::format("{} does not change {} (their rows repeat one result)", where,
                                  fmt::join(same, ", ")));
    }
  }
  return notes;
}

}  // namespace commsim
