// RunKeys: the run settings a scenario gives every algorithm entry alike. A Scenario
// (scenarios/scenario.h) holds them as parsed; every entry's RunSetup (algorithms/algorithm.h)
// starts from them, so a key added here reaches every driver without another copy step.
#ifndef COMMSIM_ALGORITHMS_RUN_KEYS_H_
#define COMMSIM_ALGORITHMS_RUN_KEYS_H_

#include <cstdint>

#include "base/limits.h"

namespace commsim {

struct RunKeys {
  uint64_t seed = 1;        // seed of every random stream
  int64_t header_bits = 0;  // added to every message's payload bits
  bool multicast_downlink = false;
  bool broadcast = false;  // decentralized: one transmission per node (shared medium)
  int64_t iterations = 100;
  int64_t batch = 0;  // samples per worker per iteration; <= 0: full shard
  int64_t metrics_every = 1;
  double divergence_loss = 1e12;
  double divergence_factor = 1e3;  // diverged when loss > factor x the initial loss (if > 0)
  SimLimits limits;                // events per run, packets per message (base/limits.h)
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_RUN_KEYS_H_
