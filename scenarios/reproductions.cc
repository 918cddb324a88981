#include "scenarios/reproductions.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "base/error.h"
#include "scenarios/json_config.h"
#include "scenarios/output_name.h"

namespace commsim {
namespace {

// A reproduction's own keys (its claims are read one by one).
struct ReproductionKeys final : ConfigBase<ReproductionKeys> {
  Reproduction* r = nullptr;
  void Describe(ParamVisitor& v) override {
    v.Text("name", r->name, {}, "folder name of the run");
    v.Text("paper", r->paper, {}, "the paper");
    v.Text("figure", r->figure, {}, "the figure or table reproduced");
    v.Text("differs", r->differs, {}, "what differs from the paper's set-up");
    v.Text("scenario", r->scenario, {}, "the scenario file, relative to the manifest");
  }
};

void ReadClaims(const nlohmann::json& claims, const std::string& pointer, Reproduction& r,
                ErrorList& errors) {
  if (!claims.is_array() || claims.empty()) {
    errors.Add(pointer, "expected a non-empty array of claims, got " + ShownJson(claims));
    return;
  }
  for (size_t i = 0; i < claims.size(); ++i) {
    const std::string at = JoinPointer(pointer, std::to_string(i));
    if (!claims[i].is_object()) {
      errors.Add(at, "expected a claim object, got " + ShownJson(claims[i]));
      continue;
    }
    ClaimConfig claim;
    ReadConfig(claims[i], at, claim, errors);
    r.claims.push_back(std::move(claim));
  }
}

Reproduction ReadOne(const nlohmann::json& obj, const std::string& pointer,
                     const std::filesystem::path& folder, ErrorList& errors) {
  Reproduction r;
  ReproductionKeys keys;
  keys.r = &r;
  ReadConfig(obj, pointer, keys, errors, {"claims"});
  if (const std::string problem = OutputNameProblem(r.name); !problem.empty()) {
    errors.Add(JoinPointer(pointer, "name"), problem);
  }
  if (r.scenario.empty()) {
    errors.Add(JoinPointer(pointer, "scenario"), "expected the scenario file");
  } else {
    r.scenario_as_written = r.scenario;
    r.scenario = (folder / r.scenario).lexically_normal().string();
  }
  if (!obj.contains("claims")) {
    errors.Add(JoinPointer(pointer, "claims"), "missing: the paper's claims to check");
  } else {
    ReadClaims(obj["claims"], JoinPointer(pointer, "claims"), r, errors);
  }
  return r;
}

}  // namespace

std::vector<Reproduction> LoadReproductions(const std::string& file) {
  const nlohmann::json doc = LoadJsonFile(file);
  ErrorList errors;
  std::vector<Reproduction> out;
  const std::filesystem::path folder = std::filesystem::path(file).parent_path();
  if (!doc.is_object() || !doc.contains("reproductions") || !doc["reproductions"].is_array()) {
    errors.Add("", "expected {\"reproductions\": [...]}");
    errors.ThrowIfAny(file);
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "reproductions") errors.Add(JoinPointer("", key), "unknown key");
  }
  std::set<std::string> names;
  const nlohmann::json& list = doc["reproductions"];
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = JoinPointer("/reproductions", std::to_string(i));
    if (!list[i].is_object()) {
      errors.Add(at, "expected a reproduction object, got " + ShownJson(list[i]));
      continue;
    }
    out.push_back(ReadOne(list[i], at, folder, errors));
    if (!names.insert(out.back().name).second) {
      errors.Add(JoinPointer(at, "name"), fmt::format("\"{}\" is used twice", out.back().name));
    }
  }
  errors.ThrowIfAny(file);
  return out;
}

}  // namespace commsim
