// CollectiveOptions and the collective family's checks (collective_driver.h).
#include <fmt/format.h>

#include <array>
#include <string_view>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/schedule.h"
#include "base/check.h"
#include "base/error.h"
#include "models/objective.h"
#include "sim/topology.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kValueBits = {"32", "64"};

}  // namespace

void CollectiveOptions::Describe(ParamVisitor& v) {
  v.Text("collective", collective, CollectiveKinds(),
         "all-reduce schedule: ring, tree (binary, heap order), halving_doubling (Rabenseifner), "
         "hierarchical (ring in groups, across groups, in groups)");
  v.Int("group_size", group_size, Range::NonNegative(),
        "hierarchical: workers per group (consecutive ranks); 0 = largest divisor of n <= sqrt(n)");
  v.Text("value_bits", value_bits, kValueBits,
         "bits per value on the wire in all-reduce steps: 32 (fp32 partial sums) or 64");
}

int CollectiveOptions::GroupSize(int n) const {
  if (group_size > 0) return static_cast<int>(group_size);
  int best = 1;
  for (int g = 1; static_cast<int64_t>(g) * g <= n; ++g) {
    if (n % g == 0) best = g;
  }
  return best;
}

void CheckCollective(const RunSetup& setup, const CollectiveOptions& options) {
  COMMSIM_CHECK(setup.topology != nullptr && setup.objective != nullptr, "incomplete RunSetup");
  const Topology& t = *setup.topology;
  const int workers = static_cast<int>(t.WorkerHosts().size());
  if (workers != setup.objective->num_workers()) {
    throw UserError(fmt::format(
        "a collective algorithm runs on every host but the server: topology {} has {} such "
        "hosts but the scenario has {} workers; they must agree",
        t.kind(), workers, setup.objective->num_workers()));
  }
  if (setup.codec.mode == CodecMode::kMeasured) {
    // Rules decode an all-gather once for all workers, so there is no per-worker wall time.
    throw UserError(
        "codec: mode \"measured\" is not available for collective algorithms; use \"model\" "
        "(or give this entry \"codec\": {\"mode\": \"none\"})");
  }
  if (options.collective == "hierarchical" && workers % options.GroupSize(workers) != 0) {
    throw UserError(
        fmt::format("group_size: must divide the {} workers, got {}", workers, options.group_size));
  }
}

IdentityConfig CollectiveOptions::WireCodec() const {
  IdentityConfig config;
  config.precision = value_bits == "64" ? 64 : 32;
  return config;
}

}  // namespace commsim
