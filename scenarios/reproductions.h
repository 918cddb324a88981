// The reproductions `commsim reproduce` runs: a manifest (scenarios/papers/reproductions.json by
// default) lists, per figure or table of a paper, the scenario that reproduces it and the paper's
// claims about it, each with the check that decides from the run whether it holds
// (analysis/claims.h).
//
// Manifest: {"reproductions": [ {
//   "name":     a plain folder name (the run's folder under the output folder),
//   "paper":    the paper, "figure": which figure or table, "differs": what differs from the
//               paper's set-up (data size, iterations, a synthetic stand-in, ...),
//   "scenario": the scenario file, relative to the manifest,
//   "claims":   [ClaimConfig objects: claim, paper, kind, field/column, entries, of, value, ...]
// } ... ]}
// Every problem is reported together as "<file>: /json/pointer: ..."; the scenarios themselves
// are checked when loaded (LoadScenario).
#ifndef COMMSIM_SCENARIOS_REPRODUCTIONS_H_
#define COMMSIM_SCENARIOS_REPRODUCTIONS_H_

#include <string>
#include <vector>

#include "analysis/claims.h"

namespace commsim {

struct Reproduction {
  std::string name, paper, figure, differs;
  std::string scenario;  // absolute or relative to the working folder (resolved from the manifest)
  std::string scenario_as_written;  // relative to the manifest, as the manifest gives it
  std::vector<ClaimConfig> claims;
};

// Reads and checks `file`. Throws UserError listing every problem.
std::vector<Reproduction> LoadReproductions(const std::string& file);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_REPRODUCTIONS_H_
