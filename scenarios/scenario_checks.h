// Scenario checks that need the built problem and algorithms, run before anything is simulated
// (scenarios/runner.cc, from CheckScenario and RunScenario), and the notes on keys that a
// scenario gives but that do nothing in it (from ParseScenario).
//
// Certain limit breaches (errors at /iterations, with the numbers):
//   simulated time  every driver runs its rounds one after another and every worker computes once
//                   per round, so a run needs at least iterations x the slowest worker's compute
//                   time (the compute model's, rounded to picoseconds as the drivers do); with
//                   jitter there is no certain bound and nothing is refused. More than
//                   SimTime::kMaxSeconds is refused.
//   events          every worker's compute is one engine event per round, so an entry runs at
//                   least iterations x workers events; more than limits.max_events is refused.
// A run that would stop early (divergence) is refused too: it asked for that many iterations.
//
// Keys with no effect (docs/scenarios.md):
//   error  network.broadcast true without a decentralized entry; network.downlink "multicast"
//          without a parameter-server entry; target_accuracy on a problem without an accuracy
//          metric (a regression, or no labelled test set)
//   note   network.queue given under a network model other than "packet" (harmless, and it
//          matters when the model is changed, e.g. by --set or a sweep axis)
#ifndef COMMSIM_SCENARIOS_SCENARIO_CHECKS_H_
#define COMMSIM_SCENARIOS_SCENARIO_CHECKS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "scenarios/json_config.h"
#include "scenarios/scenario.h"

namespace commsim {

// Adds an error for each certain limit breach of `s` (above) run with `compute` on `objective`.
void CheckCertainLimits(const Scenario& s, const ComputeTimeModel& compute,
                        const Objective& objective, ErrorList& errors);

// Adds an error for each key of `s` that can have no effect with entries of `families` (one per
// entry, in order) on `objective` (above).
void CheckKeysHaveEffect(const Scenario& s, const std::vector<Family>& families,
                         const Objective& objective, ErrorList& errors);

// The notes on keys of scenario document `doc` that do nothing in `s` (above), each
// "<s.file>: <pointer>: <why>".
std::vector<std::string> UnusedKeyNotes(const nlohmann::json& doc, const Scenario& s);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SCENARIO_CHECKS_H_
