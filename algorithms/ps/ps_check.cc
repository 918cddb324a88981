// CheckParameterServer (ps_driver.h): what a parameter-server run needs of its setup.
#include <fmt/format.h>

#include "algorithms/ps/ps_driver.h"
#include "algorithms/sync_rounds.h"
#include "base/check.h"
#include "base/error.h"
#include "models/objective.h"
#include "sim/topology.h"

namespace commsim {

void CheckParameterServer(const RunSetup& setup) {
  COMMSIM_CHECK(setup.topology != nullptr && setup.objective != nullptr, "incomplete RunSetup");
  const Topology& t = *setup.topology;
  if (t.servers().empty()) {
    throw UserError(fmt::format(
        "a parameter-server algorithm needs a topology with a server (star, star_direct, or "
        "explicit with \"server\"), got {}",
        t.kind()));
  }
  const int workers = static_cast<int>(t.WorkerHosts().size());
  if (workers != setup.objective->num_workers()) {
    throw UserError(fmt::format(
        "topology {} has {} hosts besides the server (host {}) but the scenario has {} workers; "
        "they must agree",
        t.kind(), workers, *t.server(), setup.objective->num_workers()));
  }
  if (const auto shards = static_cast<int64_t>(t.servers().size());
      shards > setup.objective->dim()) {
    throw UserError(
        fmt::format("topology {} has {} servers but the model has only {} parameters "
                    "to shard; give at most one server per parameter",
                    t.kind(), shards, setup.objective->dim()));
  }
  CheckThreadsForCodec(setup);
}

}  // namespace commsim
