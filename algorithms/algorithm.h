// Algorithm: one learning algorithm run on the simulated network from a RunSetup.
//
// Contract for every implementation:
//   - Run() builds its own Engine and Network over the shared, immutable topology, so entries
//     of one scenario have independent clocks and may run in parallel threads.
//   - Randomness only from Rng streams DeriveSeed(setup.seed, agent, purpose); the same setup gives
//     the same records bit for bit, whatever else runs concurrently.
//   - Bits charged to the network are encoded message lengths + setup.header_bits per message.
//   - Records go through a RunRecorder (algorithms/run_recorder.h): iteration 0 (the initial
//     point) and every setup.metrics_every-th iteration plus the last. Divergence stops the run
//     with status "diverged": a non-finite value in a gradient, message or model, checked every
//     iteration (an encoder's NonFiniteError, compressors/compressor.h, or the driver's own check
//     of the model), or at a recorded iteration a loss that is NaN/Inf, above setup.divergence_loss
//     or above setup.divergence_factor times the initial loss.
//   - Any other exception thrown while the rounds run (e.g. a simulation limit) ends the run with
//     status "error" and the message; records up to then are kept.
//   - Check() throws UserError for a setup the algorithm cannot run (wrong topology kind, bad
//     graph), without running anything, so bad input fails before any entry starts.
// Hyper-parameters live in the typed config the registry builds the algorithm from; per-run state
// lives inside Run().
#ifndef COMMSIM_ALGORITHMS_ALGORITHM_H_
#define COMMSIM_ALGORITHMS_ALGORITHM_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/codec_time.h"
#include "algorithms/framework.h"
#include "algorithms/run_keys.h"
#include "algorithms/step_schedule.h"
#include "base/limits.h"
#include "records/records.h"
#include "sim/network.h"

namespace commsim {

class Objective;
class Topology;
class ComputeTimeModel;
class Trajectory;
struct LayerProfile;

// An entry's run: the scenario's RunKeys (seed, iterations, batch, metrics_every, divergence,
// header bits, downlink, broadcast, limits) and what is the entry's own.
struct RunSetup : RunKeys {
  std::string label;  // the entry's label (records' `algorithm` column)
  const Objective* objective = nullptr;
  const Topology* topology = nullptr;
  const ComputeTimeModel* compute = nullptr;
  // The model's layers (models/layer_profile.h) for layer-wise overlap; nullptr: one layer of
  // objective->dim() parameters.
  const LayerProfile* layers = nullptr;
  CodecSetup codec;  // encode/decode time (algorithms/codec_time.h); default none
  // How a framework runs a collective algorithm's communication (algorithms/framework.h);
  // default ideal. Only the collective family reads it.
  FrameworkSetup framework;
  NetworkOptions network;  // model, queue, mtu, protocol, packets per message (sim/network.h)
  StepConfig step;
  // Called after every iteration with the number of iterations completed (progress reports);
  // may be empty. Runs on the thread that runs the entry.
  std::function<void(int64_t)> on_iteration;
  // Called every `events_every` simulated events with the events run and the simulated seconds
  // (progress inside long iterations); may be empty. Runs on the thread that runs the entry.
  std::function<void(int64_t events, double sim_s)> on_events;
  int64_t events_every = int64_t{1} << 16;
  // Threads inside the run (`--threads`): every driver computes the per-worker (per-node) work
  // of a round on this many threads: ps/worker_uplinks.h, decentralized/node_work.h,
  // collective/worker_gradients.h. Results are identical for every value. REQUIRES: >= 1.
  int threads = 1;
  // Trajectories (algorithms/trajectory.h), only for an algorithm with can_replay(): when
  // `record` is set the driver adds every message its rule produces to it; when `replay` is set
  // the driver replays it instead of doing the mathematics (its learning fields come from it).
  Trajectory* record = nullptr;
  const Trajectory* replay = nullptr;
};

// The algorithm families; each has its own driver (ps/ps_driver.h,
// decentralized/decentralized_run.h, collective/collective_driver.h).
enum class Family { kParameterServer, kDecentralized, kCollective };

// The family's name in outputs (summary `family` column); the only place it is spelled.
constexpr std::string_view FamilyName(Family family) {
  switch (family) {
    case Family::kParameterServer:
      return "parameter_server";
    case Family::kDecentralized:
      return "decentralized";
    case Family::kCollective:
      return "collective";
  }
  return "";
}

// What the registry line of an algorithm says about it (algorithms/registry.cc); everything
// outside algorithms/ learns about algorithms from this, never from their names.
struct AlgorithmInfo {
  std::string name;  // registry name, the scenario's "name"
  // True for its family's full-precision baseline: the entry other entries' bits are compared
  // with (summary `baseline`, `bits_fraction_of_baseline`). At most one per family.
  bool baseline = false;
  std::string color;  // plot colour, "#rrggbb"
  // True when nothing the algorithm computes depends on simulated time or arrival order (every
  // synchronous algorithm): a run's learning is then the same on any network, and a recorded
  // trajectory may be re-timed (scenarios/trajectory_reuse.h) when its driver can replay.
  bool learning_ignores_time = false;
  std::string help;                          // one line for `commsim list`
  Family family = Family::kParameterServer;  // set from the driver by AddAlgorithm
};

class Algorithm {
 public:
  explicit Algorithm(AlgorithmInfo info) : info_(std::move(info)) {}
  virtual ~Algorithm() = default;
  const AlgorithmInfo& info() const { return info_; }
  Family family() const { return info_.family; }
  // Throws UserError when `setup` cannot be run (see above). Default: nothing to check.
  virtual void Check(const RunSetup& setup) const { (void)setup; }
  // True when Run() honours RunSetup::record and RunSetup::replay (its family's driver records
  // and replays trajectories). Default: false, and Run() ignores both.
  virtual bool can_replay() const { return false; }
  virtual void Run(const RunSetup& setup, std::vector<IterationRecord>* records,
                   RunSummary* summary) const = 0;

 private:
  AlgorithmInfo info_;
};

// RuleAlgorithm<Rule, FamilyDriver>: the one adapter from a family's rule type to the Algorithm
// interface (one registry line each, AddAlgorithm in algorithms/registry.h). Rule::Config is the
// rule's typed config. FamilyDriver calls its family's driver: a struct with
//   static constexpr Family kFamily;
//   static void Check(const Rule::Config&, const RunSetup&, std::string_view name);  // UserError
//   template <class Rule> static void Run(const Rule::Config&, const RunSetup&,
//       std::string_view name, std::vector<IterationRecord>*, RunSummary*);
//   using RuleFactory = ...;  // what builds the family's rules (a std::function)
//   template <class Rule> static RuleFactory Factory(const Rule::Config&);
// (PsFamily in ps/ps_driver.h, DecentralizedFamily in decentralized/decentralized_run.h,
// CollectiveFamily in collective/collective_driver.h). Every driver records and replays
// trajectories, so can_replay() is true.
// FamilyAlgorithm<FamilyDriver> is what the registered algorithms of one family share: the factory
// of their rule, built from the algorithm's config, so that a suite that checks every rule of a
// family (the threading suites) finds them in the registry instead of in a list of its own.
template <class FamilyDriver>
class FamilyAlgorithm : public Algorithm {
 public:
  using Algorithm::Algorithm;
  virtual typename FamilyDriver::RuleFactory rule_factory() const = 0;
};

template <class Rule, class FamilyDriver>
class RuleAlgorithm final : public FamilyAlgorithm<FamilyDriver> {
 public:
  using Config = typename Rule::Config;
  static constexpr Family kFamily = FamilyDriver::kFamily;
  RuleAlgorithm(const Config& config, AlgorithmInfo info)
      : FamilyAlgorithm<FamilyDriver>(std::move(info)), config_(config) {}
  typename FamilyDriver::RuleFactory rule_factory() const override {
    return FamilyDriver::template Factory<Rule>(config_);
  }
  void Check(const RunSetup& setup) const override {
    FamilyDriver::Check(config_, setup, this->info().name);
  }
  bool can_replay() const override { return true; }
  void Run(const RunSetup& setup, std::vector<IterationRecord>* records,
           RunSummary* summary) const override {
    FamilyDriver::template Run<Rule>(config_, setup, this->info().name, records, summary);
  }

 private:
  Config config_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_ALGORITHM_H_
