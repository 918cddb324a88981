// The parameter-server round on the event engine (timing only; the mathematics is a PsRule).
//
// Workers: every host of the topology but the dedicated servers, in host order (worker w is the
// w-th such host and works on data shard w), wherever the servers sit.
// Servers (Topology::servers()): one, or S shard servers (sharded parameter server, BytePS
// style): every message of the round is cut into one part per server (S contiguous shards of the
// vector; with layer-wise overlap, S pieces of every bucket: ps_parts.h), each its own network
// message between the worker and that server; a colocated server (on a worker's host) exchanges its
// own worker's part without the network, at no bits. Every server has its own codec lanes
// (codec.server_threads each), also when colocated. The rule's mathematics runs once over the whole
// vector with every link compressing part by part (PsRule::SetBuckets): all rules update the server
// state coordinate by coordinate, so this is S servers each running the rule on its shard, except
// that the downlink's random draws come from one stream (the first server's) instead of one per
// server. Per round k (synchronous): every worker computes for its sampled compute time, then
// computes its gradient at WorkerPoint(w) and encodes its uplink; the encode takes codec time on
// the worker's codec lane (setup.codec, algorithms/codec_time.h; none: 0) and the uplink leaves
// when it is done (wire bits = payload + header); the message travels with the send; the server's
// rule takes each uplink as it arrives (in worker order, see ps_rule.h) while the server's lanes
// (codec.server_threads) decode the arrivals; when all n are decoded it encodes the downlink
// (ServerRound) and sends it (n unicast copies, or one multicast replicated at the switch); each
// worker applies it on arrival and decodes it on its lane; the round ends when the last worker has
// decoded it, and the next starts then (SyncRounds, algorithms/sync_rounds.h).
// Threads: the gradients and uplinks of all workers are computed together when the round
// starts, on setup.threads threads (algorithms/ps/worker_uplinks.h); the events only take them,
// so simulated times and results do not depend on the thread count.
// Layer-wise overlap (setup.compute's overlap "layerwise"): the vector is split into buckets
// (models/buckets.h, from setup.layers), every rule link compresses bucket by bucket
// (PsRule::SetBuckets), and each bucket is its own network message: a worker encodes bucket b
// once it is ready (its ready fraction of the worker's compute time) and sends it; the server
// encodes and sends bucket b's downlink as soon as all workers' parts of b are decoded; a worker
// is done when it has decoded every downlink bucket. The mathematics is computed at the first
// event that needs it and never depends on arrival times.
// Iteration time, compute time (the slowest worker's) and bits come from the events.
// Bits (counted where messages are sent: message_send.h): bits_up = sum of uplink wire bits;
// bits_down = downlink wire bits times the copies the server sends (n for unicast, 1 for
// multicast), part by part; a part a colocated server exchanges with its own host counts none.
// Divergence, checked every round: a worker's gradient with a NaN/Inf (before it is encoded), an
// encoder's NonFiniteError (uplink or downlink), or a non-finite server model after the round
// stops the run with status "diverged" in that round; any other exception with status "error".
// Trajectories (algorithms/trajectory.h): with setup.record the driver records each uplink and
// downlink the rule returns (slots in ps_replay.h); setup.replay runs ReplayParameterServer.
#ifndef COMMSIM_ALGORITHMS_PS_PS_DRIVER_H_
#define COMMSIM_ALGORITHMS_PS_PS_DRIVER_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/ps/ps_replay.h"
#include "algorithms/ps/ps_rule.h"
#include "records/records.h"

namespace commsim {

// REQUIRES: CheckParameterServer(setup) passes.
void RunParameterServer(const RunSetup& setup, PsRule& rule, std::vector<IterationRecord>* records,
                        RunSummary* summary);
// Throws UserError unless setup.topology has a server, exactly as many workers (hosts but the
// dedicated servers) as the objective has data shards (the scenario's workers), no more
// servers than parameters, and setup.threads == 1 with the measured codec mode (concurrent
// encodes would distort each other's wall time).
void CheckParameterServer(const RunSetup& setup);

// The parameter-server family's driver for RuleAlgorithm (algorithms/algorithm.h): Rule is a
// PsRule with a typed Rule::Config, and Rule(const Rule::Config&) builds it.
struct PsFamily {
  static constexpr Family kFamily = Family::kParameterServer;
  using RuleFactory = std::function<std::unique_ptr<PsRule>()>;
  template <class Rule>
  static RuleFactory Factory(const typename Rule::Config& config) {
    return [config] { return std::make_unique<Rule>(config); };
  }
  template <class Config>
  static void Check(const Config&, const RunSetup& setup, std::string_view) {
    CheckParameterServer(setup);
  }
  template <class Rule>
  static void Run(const typename Rule::Config& config, const RunSetup& setup, std::string_view,
                  std::vector<IterationRecord>* records, RunSummary* summary) {
    if (setup.replay != nullptr) return ReplayParameterServer(setup, records, summary);
    Rule rule(config);
    RunParameterServer(setup, rule, records, summary);
  }
};
template <class Rule>
using PsAlgorithm = RuleAlgorithm<Rule, PsFamily>;

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_PS_DRIVER_H_
