// Adds the decentralized algorithms (dpsgd, choco, malcom) to the algorithm registry; called from
// AlgorithmRegistry() in algorithms/registry.cc.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_REGISTER_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_REGISTER_H_

#include "algorithms/algorithm.h"
#include "sim/registry.h"

namespace commsim {

void AddDecentralizedAlgorithms(Registry<Algorithm>& r);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_REGISTER_H_
