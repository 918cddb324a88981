// `commsim tune-consensus`: the CHOCO recipe for gamma_c on a given topology and compressor —
// gossip-only CHOCO from random vectors over a grid of gamma_c (algorithms/decentralized/tune.h).
//
// Inputs are JSON texts read by the strict reader: the topology component (e.g.
// {"name": "torus", "bandwidth": "1Gbps"} or "ring") built for `nodes` nodes, and the compressor
// component (e.g. {"name": "qsgd", "coding": "fixed"}). Bad input is a UserError naming the
// option and the JSON pointer ("--compressor: /levels: must be >= 1, got 0").
#ifndef COMMSIM_SCENARIOS_TUNE_CONSENSUS_H_
#define COMMSIM_SCENARIOS_TUNE_CONSENSUS_H_

#include <string>

#include "algorithms/decentralized/tune.h"

namespace commsim {

struct TuneRequest {
  std::string topology_json = "\"ring\"";
  int64_t nodes = 8;
  std::string compressor_json = "\"qsgd\"";
  std::string mixing = "auto";
  std::string graph = "auto";  // see MixingForTopology
  TuneOptions options;
};

struct TuneReport {
  ConsensusTuning tuning;
  double spectral_gap = 0;
  double rho = 0;
  std::string compressor;  // the resolved compressor JSON
  std::string topology;    // the resolved topology JSON
  double tau = 1;          // CHOCO rescaling applied (options.rescale)
};

TuneReport RunTuneConsensus(const TuneRequest& request);
// A table: gamma_c, final error, per-round rate e_R^(1/R), bits per node per round; the best row
// marked, then the value to put in a scenario.
std::string FormatTuneReport(const TuneRequest& request, const TuneReport& report);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_TUNE_CONSENSUS_H_
