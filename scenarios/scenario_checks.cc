#include "scenarios/scenario_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "algorithms/sync_rounds.h"
#include "sim/time.h"

namespace commsim {
namespace {

// The slowest worker's compute time of one round, in picoseconds as the drivers draw it (the
// model's time rounded to the picosecond); 0 when the model has jitter (no certain bound) or
// one step is beyond SimTime's range by itself.
int64_t SlowestComputePs(const Scenario& s, const ComputeTimeModel& compute,
                         const Objective& objective) {
  if (compute.config().jitter > 0.0) return 0;
  RunSetup batch_keys;
  batch_keys.batch = s.batch;
  int64_t slowest = 0;
  for (int w = 0; w < objective.num_workers(); ++w) {
    const int64_t batch = EffectiveBatch(batch_keys, objective, w);
    if (batch < 1) continue;
    const double seconds = compute.MeanSeconds(w, batch);
    // One step beyond the range: the drivers' own error names the worker and the step.
    if (!(seconds <= SimTime::kMaxSeconds)) return 0;
    slowest = std::max(slowest, SimTime::FromSeconds(seconds).ps());
  }
  return slowest;
}

}  // namespace

void CheckCertainLimits(const Scenario& s, const ComputeTimeModel& compute,
                        const Objective& objective, ErrorList& errors) {
  const auto iterations = static_cast<long double>(s.iterations);
  const int64_t per_iteration_ps = SlowestComputePs(s, compute, objective);
  const long double total_ps = iterations * static_cast<long double>(per_iteration_ps);
  if (total_ps > static_cast<long double>(std::numeric_limits<int64_t>::max())) {
    errors.Add("/iterations",
               fmt::format("{} iterations need at least {:.3g} s of simulated time (at least "
                           "{:.6g} s of compute per iteration: the slowest worker's, from "
                           "/compute), more than simulated time can reach ({:.3g} s, about 106 "
                           "days); run fewer iterations or shorten the compute time",
                           s.iterations, static_cast<double>(total_ps * 1e-12L),
                           static_cast<double>(per_iteration_ps) * 1e-12, SimTime::kMaxSeconds));
  }
  const long double events = iterations * static_cast<long double>(s.workers);
  if (events > static_cast<long double>(s.limits.max_events)) {
    errors.Add(
        "/iterations",
        fmt::format("{} iterations x {} workers need at least {:.3g} simulated events "
                    "(one per worker per iteration for its compute, more for its "
                    "messages), more than limits.max_events = {}; raise "
                    "/limits/max_events (at most 1e15) if the run is meant to be this "
                    "long, or run fewer iterations",
                    s.iterations, s.workers, static_cast<double>(events), s.limits.max_events));
  }
}

void CheckKeysHaveEffect(const Scenario& s, const std::vector<Family>& families,
                         const Objective& objective, ErrorList& errors) {
  const auto has = [&](Family f) {
    return std::find(families.begin(), families.end(), f) != families.end();
  };
  if (s.broadcast && !has(Family::kDecentralized)) {
    errors.Add("/network/broadcast",
               "true has no effect: broadcast is how decentralized entries send (one "
               "transmission per node), and this scenario has none; remove the key");
  }
  if (s.multicast_downlink && !has(Family::kParameterServer)) {
    errors.Add("/network/downlink",
               "\"multicast\" has no effect: the downlink is a parameter server's message to "
               "its workers, and this scenario has no parameter-server entry; remove the key");
  }
  if (s.target_accuracy && !objective.has_test_accuracy()) {
    errors.Add("/target_accuracy",
               fmt::format("model \"{}\" on data \"{}\" has no test accuracy (a regression, or "
                           "no labelled test set), so no entry could reach it; give target_loss "
                           "instead",
                           s.model.name, s.data.name));
  }
}

std::vector<std::string> UnusedKeyNotes(const nlohmann::json& doc, const Scenario& s) {
  std::vector<std::string> notes;
  const auto network = doc.find("network");
  // ParseScenario always sets the model (scenarios/network_keys.h).
  if (network != doc.end() && network->is_object() && network->contains("queue") &&
      s.network.model.has_value() && *s.network.model != NetworkModel::kPacket) {
    notes.push_back(fmt::format(
        "{}: /network/queue: has no effect under network model \"{}\" (only the packet model "
        "queues packets at links); it applies when the model is \"packet\"",
        s.file, kNetworkModelNames[static_cast<size_t>(*s.network.model)]));
  }
  return notes;
}

}  // namespace commsim
