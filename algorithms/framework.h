// Framework profiles: how a training framework (PyTorch DDP, Horovod, GRACE) runs a collective
// algorithm's communication on a real cluster, as far as time is concerned. The mathematics of
// the algorithm never changes; what changes is how the gradient is cut into collectives, what
// each call costs, and how fast the backend moves bytes.
//
// A profile (the scenario's `framework` key, scenarios/framework_keys.h) says:
//   unit        what compression and the collectives work on:
//                 whole   one vector per worker and phase (commsim's ideal model, the default);
//                 tensor  each parameter tensor of the layer profile on its own: the compressor
//                         runs once per tensor and each tensor's message is all-gathered by its
//                         own collective, one after the other (GRACE over Horovod); all-reduces
//                         of the gradient are fused (below);
//                 bucket  the gradient in buckets of bucket_mib, all-reduced as the backward
//                         pass releases them (PyTorch DDP).
//   fusion      (unit tensor) Horovod's tensor fusion: the gradient's all-reduces are cut into
//               fusion buffers of at most fusion_mib, and a buffer starts at the end of the
//               background cycle (cycle_s, counted from the start of the step) in which its last
//               gradient became ready.
//   call_s      each collective call (negotiation, the library call): a rank joins the
//               collective call_s after it could have.
//   codec_call_s  each call of a compressor on one tensor or bucket (the framework's operators
//               and their kernel launches): added to every encode and to every decode of a part.
//   transport   the backend's: step_latency_s per message of a collective step, and host_rate
//               (bits/s), the rate at which the backend stages and reduces a message on the host
//               (copies between GPU and host memory, the reduction on the CPU) before it can be
//               used: a message of b bits is usable b / host_rate after the network delivered
//               it (0: no staging, as NCCL's GPU path). Both lie on the critical path of every
//               ring step.
// The shipped profiles and the sources of their numbers: docs/validation.md. Values are
// overridable key by key in a scenario.
#ifndef COMMSIM_ALGORITHMS_FRAMEWORK_H_
#define COMMSIM_ALGORITHMS_FRAMEWORK_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sim/time.h"

namespace commsim {

enum class FrameworkUnit { kWhole, kTensor, kBucket };

struct Transport {
  SimTime step_latency;
  double host_rate = 0;  // bits per second; 0 = no host staging
  // The time between the network's delivery of a message of `bits` and its use.
  SimTime Delay(int64_t bits) const;
  bool zero() const { return step_latency == SimTime() && host_rate == 0; }
};

struct FrameworkSetup {
  std::string name = "ideal";
  std::string backend = "ideal";
  FrameworkUnit unit = FrameworkUnit::kWhole;
  int64_t bucket_bytes = 0;  // unit bucket
  int64_t fusion_bytes = 0;  // unit tensor: all-reduce fusion buffer; 0 = one buffer per tensor
  SimTime cycle;             // unit tensor: background cycle; 0 = none
  SimTime call;
  SimTime codec_call;
  Transport transport;
  // True for commsim's own model: nothing above adds time or cuts a message.
  bool ideal() const {
    return unit == FrameworkUnit::kWhole && call == SimTime() && codec_call == SimTime() &&
           transport.zero();
  }
};

// A shipped framework profile: its name, its backends (the first is the default) and the values
// of each backend.
struct FrameworkProfile {
  std::string_view name;
  std::string_view backend;
  FrameworkUnit unit;
  double bucket_mib, fusion_mib, cycle_s, call_s, codec_call_s, step_latency_s, host_rate;
};
std::span<const FrameworkProfile> FrameworkProfiles();
// The profile of (name, backend); backend "" = the name's default. nullptr when unknown.
const FrameworkProfile* FindFrameworkProfile(std::string_view name, std::string_view backend);
std::string_view FrameworkUnitName(FrameworkUnit unit);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_FRAMEWORK_H_
