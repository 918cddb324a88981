#include "scenarios/framework_keys.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <string_view>

namespace commsim {
namespace {

constexpr std::array<std::string_view, 3> kUnits = {"whole", "tensor", "bucket"};

std::string ProfileList() {
  std::string out;
  for (const FrameworkProfile& p : FrameworkProfiles()) {
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", p.name, p.backend);
  }
  return out;
}

FrameworkUnit UnitOf(const std::string& name) {
  if (name == "tensor") return FrameworkUnit::kTensor;
  if (name == "bucket") return FrameworkUnit::kBucket;
  return FrameworkUnit::kWhole;
}

}  // namespace

void FrameworkKeys::Describe(ParamVisitor& v) {
  v.Text("name", name, {}, "framework profile: ideal, horovod, grace, pytorch_ddp");
  v.Text("backend", backend, {}, "its backend: horovod, grace: mpi, nccl; pytorch_ddp: nccl, gloo");
  v.Text("unit", unit, kUnits,
         "what compression and collectives work on: whole vector, each tensor, or buckets");
  v.Real("bucket_mib", bucket_mib, Range::NonNegative(), "unit bucket: bucket size in MiB");
  v.Real("fusion_mib", fusion_mib, Range::NonNegative(),
         "unit tensor: all-reduce fusion buffer in MiB (0: one all-reduce per tensor)");
  v.Real("cycle", cycle_s, Range::Closed(0, 1), "unit tensor: the background cycle (0: none)",
         Unit::kSeconds);
  v.Real("call", call_s, Range::Closed(0, 1), "cost of each collective call", Unit::kSeconds);
  v.Real("codec_call", codec_call_s, Range::Closed(0, 1),
         "cost of each compressor call on one tensor or bucket (encode and decode)",
         Unit::kSeconds);
  v.Real("step_latency", step_latency_s, Range::Closed(0, 1),
         "backend: latency of every message of a collective step", Unit::kSeconds);
  v.Real("host_rate", host_rate, Range::NonNegative(),
         "backend: rate of staging a message through the host (0: none)", Unit::kBitsPerSecond);
}

bool ProfileKeys(const std::string& name, const std::string& backend, FrameworkKeys& keys) {
  const FrameworkProfile* p = FindFrameworkProfile(name, backend);
  if (p == nullptr) return false;
  keys = FrameworkKeys{};
  keys.name = std::string(p->name);
  keys.backend = std::string(p->backend);
  keys.unit = std::string(FrameworkUnitName(p->unit));
  keys.bucket_mib = p->bucket_mib;
  keys.fusion_mib = p->fusion_mib;
  keys.cycle_s = p->cycle_s;
  keys.call_s = p->call_s;
  keys.codec_call_s = p->codec_call_s;
  keys.step_latency_s = p->step_latency_s;
  keys.host_rate = p->host_rate;
  return true;
}

void ReadFrameworkKeys(const nlohmann::json& value, const std::string& pointer, FrameworkKeys& keys,
                       ErrorList& errors) {
  const nlohmann::json object = value.is_string() ? nlohmann::json{{"name", value}} : value;
  if (!object.is_object()) {
    errors.Add(pointer, fmt::format("expected a framework name or an object {{\"name\": ...}}, "
                                    "got {}",
                                    value.dump().substr(0, 60)));
    return;
  }
  std::string name = keys.name, backend;
  for (const auto& [key, target] : {std::pair{"name", &name}, std::pair{"backend", &backend}}) {
    const auto it = object.find(key);
    if (it == object.end()) continue;
    if (!it->is_string()) {
      errors.Add(pointer + "/" + key,
                 fmt::format("expected a string, got {}", it->dump().substr(0, 60)));
      return;
    }
    *target = it->get<std::string>();
  }
  const bool same = name == keys.name && (backend.empty() || backend == keys.backend);
  if (!same && !ProfileKeys(name, backend, keys)) {
    const bool known = FindFrameworkProfile(name, "") != nullptr;
    errors.Add(
        pointer + (known ? "/backend" : "/name"),
        fmt::format("expected one of the shipped framework profiles: {}; got {}", ProfileList(),
                    known ? fmt::format("backend \"{}\" of {}", backend, name)
                          : fmt::format("\"{}\"", name)));
    return;
  }
  ReadConfig(object, pointer, keys, errors);
  if (keys.unit == "bucket" && keys.bucket_mib <= 0) {
    errors.Add(
        pointer + "/bucket_mib",
        fmt::format("unit \"bucket\" needs a bucket size above 0 MiB, got {}", keys.bucket_mib));
  }
}

FrameworkSetup ResolveFramework(const FrameworkKeys& keys) {
  FrameworkSetup s;
  s.name = keys.name;
  s.backend = keys.backend;
  s.unit = UnitOf(keys.unit);
  s.bucket_bytes = std::llround(keys.bucket_mib * 1024 * 1024);
  s.fusion_bytes = std::llround(keys.fusion_mib * 1024 * 1024);
  s.cycle = SimTime::FromSeconds(keys.cycle_s);
  s.call = SimTime::FromSeconds(keys.call_s);
  s.codec_call = SimTime::FromSeconds(keys.codec_call_s);
  s.transport.step_latency = SimTime::FromSeconds(keys.step_latency_s);
  s.transport.host_rate = keys.host_rate;
  return s;
}

}  // namespace commsim
