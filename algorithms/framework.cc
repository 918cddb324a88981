#include "algorithms/framework.h"

#include <array>

namespace commsim {
namespace {

using U = FrameworkUnit;

// Fitted by validation/hardware/fit.py (docs/validation.md): Horovod 0.18 over MPI on 10 Gb/s
// Ethernet, the latency of every message of a collective step (on GRACE's ResNet-20 rows of 8
// workers, uncompressed and top-k) and the host staging rate (on GRACE's ResNet-50 MPI row of 8
// workers). Gloo stages through the host like MPI and reuses them (not fitted on Gloo).
constexpr double kMpiStepLatency = 4.049e-5;
constexpr double kMpiHostRate = 6.973e9;

// The shipped profiles, one line each. The numbers and where they come from (documented
// defaults, or fitted, and on which measured rows): docs/validation.md, "Framework profiles".
// Horovod's MPI transport constants (step latency, host rate) are fitted; Horovod's 64 MiB fusion
// buffer and 5 ms cycle (its defaults up to 0.20), and DDP's 25 MiB buckets, are the frameworks'
// documented defaults; NCCL's transport is taken as ideal, call costs as zero (the codec device
// profile charges every framework op). grace is Horovod with GRACE's per-tensor compression.
constexpr std::array<FrameworkProfile, 7> kProfiles = {{
    // name, backend, unit, bucket_mib, fusion_mib, cycle_s, call_s, codec_call_s,
    // step_latency_s, host_rate
    {"ideal", "ideal", U::kWhole, 0, 0, 0, 0, 0, 0, 0},
    {"horovod", "mpi", U::kTensor, 0, 64, 5e-3, 0, 0, kMpiStepLatency, kMpiHostRate},
    {"horovod", "nccl", U::kTensor, 0, 64, 5e-3, 0, 0, 0, 0},
    {"grace", "mpi", U::kTensor, 0, 64, 5e-3, 0, 0, kMpiStepLatency, kMpiHostRate},
    {"grace", "nccl", U::kTensor, 0, 64, 5e-3, 0, 0, 0, 0},
    {"pytorch_ddp", "nccl", U::kBucket, 25, 0, 0, 0, 0, 0, 0},
    {"pytorch_ddp", "gloo", U::kBucket, 25, 0, 0, 0, 0, kMpiStepLatency, kMpiHostRate},
}};

}  // namespace

SimTime Transport::Delay(int64_t bits) const {
  SimTime d = step_latency;
  if (host_rate > 0) d = d + SimTime::FromSeconds(static_cast<double>(bits) / host_rate);
  return d;
}

std::span<const FrameworkProfile> FrameworkProfiles() { return kProfiles; }

const FrameworkProfile* FindFrameworkProfile(std::string_view name, std::string_view backend) {
  for (const FrameworkProfile& p : kProfiles) {
    if (p.name == name && (backend.empty() || p.backend == backend)) return &p;
  }
  return nullptr;
}

std::string_view FrameworkUnitName(FrameworkUnit unit) {
  switch (unit) {
    case FrameworkUnit::kWhole:
      return "whole";
    case FrameworkUnit::kTensor:
      return "tensor";
    case FrameworkUnit::kBucket:
      return "bucket";
  }
  return "";
}

}  // namespace commsim
