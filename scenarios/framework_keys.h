// The scenario's `framework` key: which training framework's way of communicating the collective
// entries' time follows (algorithms/framework.h).
//
//   framework "NAME" | {name, backend, unit, bucket_mib, fusion_mib, cycle, call, codec_call,
//                       step_latency, host_rate}
// `name` picks a shipped profile (ideal, horovod, grace, pytorch_ddp) and `backend` one of its
// backends (horovod, grace: mpi or nccl; pytorch_ddp: nccl or gloo; absent: the first); every
// other key overrides that profile's value. Absent: "ideal", commsim's own model (every result
// is as without the key). An entry's `framework` replaces the scenario's when it names another
// profile, and overrides fields of it when it names the same one.
// Only collective algorithms follow a framework; another entry under a profile other than ideal
// is an error.
#ifndef COMMSIM_SCENARIOS_FRAMEWORK_KEYS_H_
#define COMMSIM_SCENARIOS_FRAMEWORK_KEYS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "algorithms/framework.h"
#include "base/params.h"
#include "scenarios/json_config.h"

namespace commsim {

struct FrameworkKeys final : ConfigBase<FrameworkKeys> {
  std::string name = "ideal";
  std::string backend = "ideal";
  std::string unit = "whole";
  double bucket_mib = 0, fusion_mib = 0;
  double cycle_s = 0, call_s = 0, codec_call_s = 0, step_latency_s = 0;
  double host_rate = 0;  // bits per second
  void Describe(ParamVisitor& v) override;
};

// The keys of the shipped profile (name, backend); false when there is none.
bool ProfileKeys(const std::string& name, const std::string& backend, FrameworkKeys& keys);

// Reads a `framework` value (a name or an object) at `pointer` on top of `keys` (see above).
void ReadFrameworkKeys(const nlohmann::json& value, const std::string& pointer, FrameworkKeys& keys,
                       ErrorList& errors);

FrameworkSetup ResolveFramework(const FrameworkKeys& keys);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_FRAMEWORK_KEYS_H_
