// Scenario: everything one `commsim run` needs, parsed and validated from JSON.
//
// Top-level keys (all optional except `algorithms`; defaults in parentheses):
//   name ("scenario"), seed (1), workers (8), iterations (100), batch (0 = full shard; a batch
//   larger than a worker's shard is capped at the shard), metrics_every (1),
//   divergence_loss (1e12), divergence_factor (1e3: diverged when the loss exceeds this factor
//   times the initial loss), target_loss / target_accuracy (optional: the time-to-target goal,
//   analysis/targets.h), header_bits (0),
//   model, data, partition (components; see `commsim list`), compute (compute-time model),
//   network {topology (component, default star), model, queue, mtu, protocol, framing,
//            tcp_timestamps (scenarios/network_keys.h), downlink ("unicast" | "multicast"),
//            broadcast (false)},
//   codec {mode, device, profile, server_threads} (scenarios/codec_keys.h; absent: mode none),
//   framework "NAME" | {name, backend, ...} (scenarios/framework_keys.h; absent: ideal),
//   step {size, schedule, ...} (default for every entry),
//   limits {max_events (1e10), max_packets_per_message (1e6)}: work one entry may do (limits.h),
//   algorithms: [ {name, label?, step?, codec?, framework?, topology?, <algorithm parameters>} ...
//   ]
//     label defaults to the name; step, codec and framework override fields of the scenario's
//     (framework: see framework_keys.h); topology lets a
//     decentralized entry run on a graph while parameter-server entries use the star.
// `workers` is the number of shards: parameter-server workers (every topology host but the
// server) or decentralized nodes.
// An entry's topology inherits the scenario topology's link parameters it does not set itself
// (InheritedLinks below), so one `network` setting applies to every entry.
// A relative data `path` is resolved against `base_dir` (the scenario file's folder) and stored
// absolute, so the resolved scenario runs from anywhere.
// The resolved form (every default filled in) is written as scenario.resolved.json.
#ifndef COMMSIM_SCENARIOS_SCENARIO_H_
#define COMMSIM_SCENARIOS_SCENARIO_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/run_keys.h"
#include "algorithms/step_schedule.h"
#include "base/limits.h"
#include "base/params.h"
#include "models/compute_time.h"
#include "scenarios/codec_keys.h"
#include "scenarios/framework_keys.h"
#include "sim/network.h"

namespace commsim {

// iterations / metrics_every is bounded: every recorded iteration is kept in memory.
inline constexpr int64_t kMaxRecordedIterations = 10'000'000;

struct AlgorithmEntry {
  std::string label;
  ComponentSpec algorithm;  // kind "algorithm"
  StepConfig step;
  ComponentSpec topology;  // the entry's own topology, when it gives one (else the scenario's)
  CodecKeys codec_keys;    // the scenario's, with the entry's own `codec` on top
  bool own_codec = false;  // the entry gave `codec`
  CodecSetup codec;        // resolved (profile loaded)
  FrameworkKeys framework_keys;  // the scenario's, with the entry's own `framework` on top
  bool own_framework = false;    // the entry gave `framework`
  FrameworkSetup framework;      // resolved
};

// The RunKeys (seed, iterations, batch, metrics_every, divergence_*, header_bits,
// multicast_downlink, broadcast, limits) are every entry's: its RunSetup starts from them
// (scenarios/runner.cc).
struct Scenario : RunKeys {
  std::string file;         // origin, for messages
  nlohmann::json resolved;  // the scenario with every default filled in
  std::string name = "scenario";
  int64_t workers = 8;
  std::optional<double> target_loss;
  std::optional<double> target_accuracy;
  // The label of the entry every entry is compared with ("": each entry's family baseline,
  // scenarios/runner.cc).
  std::string baseline;
  ComponentSpec model;      // kind "model"
  ComponentSpec data;       // kind "dataset"
  ComponentSpec partition;  // kind "partition"
  ComputeTimeConfig compute;
  CodecKeys codec;          // mode "none" when the scenario has no `codec` key
  FrameworkKeys framework;  // "ideal" when the scenario has no `framework` key
  ComponentSpec topology;   // kind "topology"
  NetworkOptions network;   // model, queue, mtu, protocol (max_packets_per_message: see limits)
  StepConfig step;
  std::vector<AlgorithmEntry> algorithms;
  // Notes on keys given that do nothing here (scenarios/scenario_checks.h), each
  // "<file>: <pointer>: <why>"; the commands print them.
  std::vector<std::string> notes;
};

// The link parameters an entry topology of kind `entry_kind` takes from the scenario's topology
// `scenario_topology` (its resolved JSON) where the entry does not give them:
//   bandwidth        <- bandwidth, else worker_bandwidth
//   latency          <- latency, else worker_latency
//   worker_bandwidth <- worker_bandwidth, else bandwidth     (worker_latency alike)
//   server_bandwidth <- server_bandwidth, else bandwidth, else worker_bandwidth (server_latency
//                       alike)
//   worker_bandwidths, worker_latencies <- the same key
// Only keys the entry's kind has are returned. Shapes (edges, rows, p, ...) are never inherited.
nlohmann::json InheritedLinks(const nlohmann::json& scenario_topology, std::string_view entry_kind);

// Parses a scenario document. `origin` names it in messages; relative data paths are resolved
// against `base_dir`. Throws UserError listing every problem.
Scenario ParseScenario(const nlohmann::json& doc, const std::string& origin,
                       const std::string& base_dir);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SCENARIO_H_
