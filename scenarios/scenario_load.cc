// ApplySet, LoadScenarioDocument and LoadScenario (runner.h): a scenario file with `--set`
// overrides, read and validated.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "base/error.h"
#include "scenarios/json_config.h"
#include "scenarios/runner.h"

namespace commsim {

using nlohmann::json;

void ApplySet(json& doc, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || assignment.empty() || assignment[0] != '/') {
    throw UserError(fmt::format("--set {}: expected /json/pointer=value", assignment));
  }
  const std::string pointer = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  std::optional<json> value = TryParseJsonText(text, "--set " + pointer);
  if (!value) {
    try {
      (void)json(text).dump();  // JSON strings must be UTF-8 (the resolved scenario is written)
    } catch (const json::exception&) {
      throw UserError(fmt::format("--set {}: the value is not valid UTF-8 text", pointer));
    }
  }
  const std::string problem = SetAtPointer(doc, pointer, value ? *value : json(text));
  if (!problem.empty()) {
    throw UserError(fmt::format("--set {}: cannot set {}: {}", assignment, pointer, problem));
  }
}

json LoadScenarioDocument(const std::string& file, const std::vector<std::string>& sets) {
  json doc = LoadJsonFile(file);
  for (const std::string& s : sets) ApplySet(doc, s);
  // A data path given on the command line is relative to the working directory, not the file.
  const bool data_path_set = std::any_of(sets.begin(), sets.end(), [](const std::string& s) {
    return s.rfind("/data/path=", 0) == 0;
  });
  const json::json_pointer data_path("/data/path");
  if (data_path_set && doc.contains(data_path) && doc.at(data_path).is_string()) {
    const std::filesystem::path path(doc.at(data_path).get<std::string>());
    if (!path.empty() && path.is_relative()) {
      doc[data_path] = std::filesystem::absolute(path).lexically_normal().string();
    }
  }
  return doc;
}

Scenario LoadScenario(const std::string& file, const std::vector<std::string>& sets) {
  const json doc = LoadScenarioDocument(file, sets);
  const std::string base_dir = std::filesystem::path(file).parent_path().string();
  return ParseScenario(doc, file, base_dir);
}

}  // namespace commsim
