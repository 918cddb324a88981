#include "scenarios/codec_profile_file.h"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <optional>

#include "base/error.h"
#include "scenarios/codec_devices.h"
#include "scenarios/codec_recipe.h"
#include "scenarios/json_config.h"

namespace commsim {
namespace {

using nlohmann::json;

struct CostKeys final : ConfigBase<CostKeys> {
  CodecCost* cost;
  explicit CostKeys(CodecCost* c) : cost(c) {}
  void Describe(ParamVisitor& v) override {
    const Range r = Range::Closed(0, 1e6);
    v.Real("c0_s", cost->c0_s, r, "seconds per call", Unit::kSeconds);
    v.Real("elem_s", cost->elem_s, r, "seconds per element", Unit::kSeconds);
    v.Real("nnz_s", cost->nnz_s, r, "seconds per coded value (nonzero)", Unit::kSeconds);
    v.Real("bit_s", cost->bit_s, r, "seconds per payload bit", Unit::kSeconds);
  }
};

struct EntryKeys final : ConfigBase<EntryKeys> {
  std::string note;
  void Describe(ParamVisitor& v) override { v.Text("note", note, {}, "free text"); }
};

struct TopKeys final : ConfigBase<TopKeys> {
  CodecProfile* p;
  std::string generated_by;
  explicit TopKeys(CodecProfile* profile) : p(profile) {}
  void Describe(ParamVisitor& v) override {
    v.Text("device", p->device, {}, "device name");
    v.Text("source", p->source, {}, "where the numbers came from");
    v.Text("generated_by", generated_by, {}, "the program that wrote the file, if any");
  }
};

// One direction: fitted coefficients, or {"ops": [...]} compiled over the profile's operations.
void ReadCost(const json& value, const std::string& pointer, const CodecOperations* operations,
              CodecCost& cost, ErrorList& errors) {
  if (!value.is_object() || !value.contains("ops")) {
    CostKeys keys(&cost);
    ReadConfig(value, pointer, keys, errors);
    return;
  }
  if (value.size() != 1) {
    errors.Add(pointer,
               "expected either \"ops\" or the coefficients c0_s, elem_s, nnz_s, bit_s, "
               "not both");
  }
  if (operations == nullptr) {
    errors.Add(JoinPointer(pointer, "ops"),
               "a recipe needs the profile's \"operations\" (the cost of each operation class)");
    return;
  }
  cost = CompileCodecRecipe(value["ops"], JoinPointer(pointer, "ops"), *operations, errors);
}

void ReadEntry(const json& value, const std::string& pointer, const CodecOperations* operations,
               CodecCoefficients& c, ErrorList& errors) {
  if (!value.is_object()) {
    errors.Add(pointer,
               fmt::format("expected an object with encode and decode, got {}", ShownJson(value)));
    return;
  }
  EntryKeys entry;
  ReadConfig(value, pointer, entry, errors, {"encode", "decode"});
  for (const auto& [key, cost] : {std::pair{"encode", &c.encode}, std::pair{"decode", &c.decode}}) {
    const auto it = value.find(key);
    if (it == value.end()) {
      errors.Add(JoinPointer(pointer, key), "missing: an object of coefficients is required");
      continue;
    }
    ReadCost(*it, JoinPointer(pointer, key), operations, *cost, errors);
  }
}

}  // namespace

std::shared_ptr<const CodecProfile> ParseCodecProfile(const json& doc, const std::string& origin) {
  auto profile = std::make_shared<CodecProfile>();
  profile->origin = origin;
  ErrorList errors;
  if (!doc.is_object()) {
    errors.Add("", "expected a JSON object with device, source and compressors");
    errors.ThrowIfAny(origin);
  }
  TopKeys top(profile.get());
  ReadConfig(doc, "", top, errors, {"compressors", "operations"});
  if (profile->device.empty()) errors.Add("/device", "missing: a device name is required");
  std::optional<CodecOperations> operations;
  if (const auto ops = doc.find("operations"); ops != doc.end()) {
    operations = ReadCodecOperations(*ops, "/operations", errors);
  }
  const auto it = doc.find("compressors");
  if (it == doc.end() || !it->is_object()) {
    errors.Add("/compressors", "expected an object of compressors by registry name");
  } else {
    for (const auto& [name, value] : it->items()) {
      ReadEntry(value, JoinPointer("/compressors", name), operations ? &*operations : nullptr,
                profile->compressors[name], errors);
    }
  }
  errors.ThrowIfAny(origin);
  return profile;
}

std::shared_ptr<const CodecProfile> LoadCodecProfileFile(const std::string& path) {
  return ParseCodecProfile(LoadJsonFile(path), path);
}

std::shared_ptr<const CodecProfile> ShippedCodecProfile(std::string_view device) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const CodecProfile>, std::less<>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = cache.find(device); it != cache.end()) return it->second;
  for (const ShippedCodecDevice& d : kShippedCodecDevices) {
    if (d.name != device) continue;
    const std::string origin = fmt::format("algorithms/codec/devices/{}.json", d.name);
    auto profile = ParseCodecProfile(ParseJsonText(d.json, origin), origin);
    cache.emplace(std::string(device), profile);
    return profile;
  }
  return nullptr;
}

std::vector<std::string> ShippedCodecDevices() {
  std::vector<std::string> names;
  for (const ShippedCodecDevice& d : kShippedCodecDevices) names.emplace_back(d.name);
  std::sort(names.begin(), names.end());
  return names;
}

json CodecProfileJson(const CodecProfile& profile) {
  const auto cost = [](const CodecCost& c) {
    return json{{"c0_s", c.c0_s}, {"elem_s", c.elem_s}, {"nnz_s", c.nnz_s}, {"bit_s", c.bit_s}};
  };
  json compressors = json::object();
  for (const auto& [name, c] : profile.compressors) {
    compressors[name] = json{{"encode", cost(c.encode)}, {"decode", cost(c.decode)}};
  }
  return json{{"device", profile.device},
              {"source", profile.source},
              {"compressors", std::move(compressors)}};
}

}  // namespace commsim
