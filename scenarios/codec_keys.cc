#include "scenarios/codec_keys.h"

#include <fmt/format.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "base/error.h"
#include "scenarios/codec_profile_file.h"

namespace commsim {
namespace {

// Collects the compressor specs an algorithm's config holds, with their JSON pointers.
class CompressorFinder final : public ParamVisitor {
 public:
  explicit CompressorFinder(std::string pointer) : pointer_(std::move(pointer)) {}
  void Int(std::string_view, int64_t&, Range, std::string_view, Unit) override {}
  void Real(std::string_view, double&, Range, std::string_view, Unit) override {}
  void Bool(std::string_view, bool&, std::string_view) override {}
  void Text(std::string_view, std::string&, std::span<const std::string_view>,
            std::string_view) override {}
  void RealList(std::string_view, std::vector<double>&, Range, std::string_view, Unit) override {}
  void Component(std::string_view key, ComponentSpec& spec, std::string_view) override {
    const std::string pointer = JoinPointer(pointer_, key);
    if (spec.kind == "compressor") found.emplace_back(pointer, spec.name);
    if (spec.config == nullptr) return;
    CompressorFinder inner(pointer);
    spec.config->Describe(inner);
    found.insert(found.end(), inner.found.begin(), inner.found.end());
  }
  std::vector<std::pair<std::string, std::string>> found;  // (pointer, compressor name)

 private:
  std::string pointer_;
};

}  // namespace

void CodecKeys::Describe(ParamVisitor& v) {
  v.Text("mode", mode, kCodecModeNames,
         "model: device-profile cost per message (deterministic); none: free; measured: real "
         "wall time (not reproducible)");
  v.Text("device", device, {}, "shipped device profile: cpu_core, v100, a100, h100");
  v.Text("profile", profile, {}, "a device profile file of one's own (overrides device)");
  v.Int("server_threads", server_threads, Range::Closed(1, 4096),
        "parameter server: parallel decode/encode lanes");
}

void ReadCodecKeys(const nlohmann::json& object, const std::string& pointer,
                   const std::string& base_dir, CodecKeys& keys, ErrorList& errors) {
  ReadConfig(object, pointer, keys, errors);
  if (object.is_object() && object.contains("profile") && !keys.profile.empty()) {
    const std::filesystem::path p(keys.profile);
    if (!p.is_absolute()) {
      std::error_code ec;
      std::filesystem::path full =
          std::filesystem::absolute(std::filesystem::path(base_dir) / p, ec);
      if (ec) full = std::filesystem::path(base_dir) / p;
      keys.profile = full.lexically_normal().string();
    }
  }
}

CodecSetup ResolveCodec(const CodecKeys& keys, const ComponentSpec& algorithm,
                        const std::string& pointer, const std::string& entry_pointer,
                        ErrorList& errors) {
  CodecSetup setup;
  setup.server_threads = static_cast<int>(keys.server_threads);
  if (keys.mode == "none") return setup;
  if (keys.mode == "measured") {
    setup.mode = CodecMode::kMeasured;
    return setup;
  }
  setup.mode = CodecMode::kModel;
  try {
    setup.profile = keys.profile.empty() ? ShippedCodecProfile(keys.device)
                                         : LoadCodecProfileFile(keys.profile);
  } catch (const UserError& e) {
    errors.Add(pointer + "/profile", e.what());
    return CodecSetup{};
  }
  if (setup.profile == nullptr) {
    std::string names;
    for (const std::string& n : ShippedCodecDevices()) names += (names.empty() ? "" : ", ") + n;
    errors.Add(pointer + "/device",
               fmt::format("expected a shipped device profile ({}) or a \"profile\" file, got "
                           "\"{}\"",
                           names, keys.device));
    return CodecSetup{};
  }
  if (algorithm.config == nullptr) return setup;
  CompressorFinder finder(entry_pointer);
  algorithm.config->Describe(finder);
  for (const auto& [where, name] : finder.found) {
    if (!setup.profile->compressors.contains(name)) {
      errors.Add(where, fmt::format("codec profile {} ({}) has no coefficients for compressor "
                                    "\"{}\"; add them or use codec mode \"none\"",
                                    setup.profile->device, setup.profile->origin, name));
    }
  }
  return setup;
}

}  // namespace commsim
