// The collective round on the event engine (timing only; the mathematics is a CollectiveRule).
//
// Workers: every host of the topology but the dedicated servers, in host order; worker w is
// rank w of every collective and works on shard w. On the default star the server host stays
// idle and the workers talk to each other through the switch.
// Per round k (synchronous, SyncRounds): every worker computes for its sampled compute time,
// computes its gradient at the model, then runs the rule's phases: each phase is a collective
// (collective_exec.h) whose every step is real messages through the network, dependency-driven
// (a worker starts a step when what it needs has arrived, and its next phase when its previous
// one is done). The round ends when the last worker has finished its last phase; the rule's
// EndRound then updates the model (local computation takes no simulated time).
// Codec time (setup.codec, algorithms/codec_time.h; mode model or none): in an all-gather phase a
// worker encodes its message on its one codec lane before it joins, and after the all-gather
// decodes the n messages one after the other; all-reduce steps take none. The round's
// codec_time_s is the last worker's own codec chain.
// Layer-wise overlap (setup.compute's overlap "layerwise"): a rule's gradient phase
// (CollectivePhase::gradient) is all-reduced bucket by bucket (bucketed_allreduce.h), each bucket
// once the backward pass has released it (its ready fraction of the worker's compute time); other
// phases start after the whole compute. overlap_saved = compute end - first bucket's start.
// Threads (setup.threads, worker_gradients.h): every worker's gradient and phase-0 input or
// message are computed at the round's start, in parallel, and taken at the worker's event; the
// collectives, later phases and EndRound run on one thread in event order (the rule may use the
// pool for its own work: CollectiveRule::UsePool). Results do not depend
// on the thread count.
// Bits: bits_up = the wire bits of every message of every collective step (payload + header),
// every copy counted; bits_down = 0 (there is no server).
// Trajectories (algorithms/trajectory.h): with setup.record the driver records every all-gather
// message (slots in collective_replay.h); setup.replay runs ReplayCollective.
// Divergence, checked every round: a gradient with a NaN/Inf, an encoder's NonFiniteError (e.g. a
// partial sum beyond fp32 on a 32-bit wire), or a non-finite model after EndRound stops the run
// with status "diverged"; any other exception with status "error".
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_DRIVER_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_DRIVER_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/collective/collective_replay.h"
#include "algorithms/collective/collective_rule.h"
#include "base/params.h"
#include "compression/compressors/identity.h"
#include "records/records.h"

namespace commsim {

// How a collective algorithm all-reduces (the keys its config declares with Describe()).
struct CollectiveOptions {
  std::string collective = "ring";  // one of CollectiveKinds() (schedule.h)
  int64_t group_size = 0;           // hierarchical: ranks per group; 0 = largest divisor <= sqrt(n)
  std::string value_bits = "32";    // bits per value on the wire: "32" (fp32) or "64" (fp64)
  void Describe(ParamVisitor& v);
  // The group size used for n workers (resolves 0).
  int GroupSize(int n) const;
  int64_t ValueBytes() const { return value_bits == "64" ? 8 : 4; }
  // The identity codec of the values on the wire (value_bits).
  IdentityConfig WireCodec() const;
};

// Throws UserError unless the topology's hosts but the server are as many as the scenario's
// workers, and (hierarchical) the group size divides them.
void CheckCollective(const RunSetup& setup, const CollectiveOptions& options);
// REQUIRES: CheckCollective(setup, options) passes.
void RunCollective(const RunSetup& setup, const CollectiveOptions& options, CollectiveRule& rule,
                   std::vector<IterationRecord>* records, RunSummary* summary);

// The collective family's driver for RuleAlgorithm (algorithms/algorithm.h): Rule is a
// CollectiveRule whose Rule::Config has a `common` field (CollectiveOptions), and
// Rule(const Rule::Config&) builds it.
struct CollectiveFamily {
  static constexpr Family kFamily = Family::kCollective;
  using RuleFactory = std::function<std::unique_ptr<CollectiveRule>()>;
  template <class Rule>
  static RuleFactory Factory(const typename Rule::Config& config) {
    return [config] { return std::make_unique<Rule>(config); };
  }
  template <class Config>
  static void Check(const Config& config, const RunSetup& setup, std::string_view) {
    CheckCollective(setup, config.common);
  }
  template <class Rule>
  static void Run(const typename Rule::Config& config, const RunSetup& setup, std::string_view,
                  std::vector<IterationRecord>* records, RunSummary* summary) {
    Rule rule(config);
    if (setup.replay != nullptr)
      return ReplayCollective(setup, config.common, rule, records, summary);
    RunCollective(setup, config.common, rule, records, summary);
  }
};
template <class Rule>
using CollectiveAlgorithm = RuleAlgorithm<Rule, CollectiveFamily>;

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_DRIVER_H_
