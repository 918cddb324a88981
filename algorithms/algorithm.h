// Algorithm: one learning algorithm run on the simulated network from a RunSetup.
//
// Contract for every implementation:
//   - Run() builds its own Engine and Network over the shared, immutable topology, so entries
//     of one scenario have independent clocks and may run in parallel threads.
//   - Randomness only from Rng streams DeriveSeed(setup.seed, agent, purpose); the same setup gives
//     the same records bit for bit, whatever else runs concurrently.
//   - Bits charged to the network are encoded message lengths + setup.header_bits per message.
//   - Records go through a RunRecorder (algorithms/run_recorder.h): iteration 0 (the initial
//     point) and every setup.metrics_every-th iteration plus the last; divergence (NaN/Inf or loss
//     above setup.divergence_loss) stops the run with status "diverged".
// Hyper-parameters live in the typed config the registry builds the algorithm from; per-run state
// lives inside Run().
#ifndef COMMSIM_ALGORITHMS_ALGORITHM_H_
#define COMMSIM_ALGORITHMS_ALGORITHM_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/step_schedule.h"
#include "analysis/records.h"
#include "sim/limits.h"

namespace commsim {

class Objective;
class Topology;
class ComputeTimeModel;

struct RunSetup {
  std::string label;  // the entry's label (records' `algorithm` column)
  uint64_t seed = 1;
  const Objective* objective = nullptr;
  const Topology* topology = nullptr;
  const ComputeTimeModel* compute = nullptr;
  int64_t mtu_bits = 0;     // 0: messages travel whole (store-and-forward per hop)
  int64_t header_bits = 0;  // added to every message's payload bits
  bool multicast_downlink = false;
  bool broadcast = false;  // decentralized: one transmission per node (shared medium)
  int64_t iterations = 100;
  int64_t batch = 0;  // samples per worker per iteration; <= 0: full shard
  int64_t metrics_every = 1;
  double divergence_loss = 1e12;
  StepConfig step;
  SimLimits limits;  // events per run, packets per message (sim/limits.h)
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  // "parameter_server" or "decentralized".
  virtual std::string_view family() const = 0;
  virtual void Run(const RunSetup& setup, std::vector<IterationRecord>* records,
                   RunSummary* summary) const = 0;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_ALGORITHM_H_
