// Which entries a sweep axis changes: an axis that changes nothing any entry runs is an error
// (a sweep of `server_bandwidth` over entries that all bring their own ring would repeat one
// result at every point); one that leaves some entries unchanged gives a note naming them.
//
// An entry's run is read from the resolved scenario (every default filled in): the scenario's keys
// (without its name and description; without the scenario's topology when the entry brings its
// own, which already holds the links it inherits) plus the entry's own resolved keys. With every
// other axis at its first value, the axis's first value is compared with each of its others.
#ifndef COMMSIM_SCENARIOS_SWEEP_AXIS_CHECK_H_
#define COMMSIM_SCENARIOS_SWEEP_AXIS_CHECK_H_

#include <string>
#include <vector>

#include "scenarios/sweep.h"

namespace commsim {

// The notes ("<file>: /axes/<i>: ..."), one per axis that leaves some entries unchanged. Throws
// UserError for an axis that changes no entry. REQUIRES: every point parses (ValidateSweepPoints).
std::vector<std::string> SweepAxisNotes(const Sweep& sweep);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_AXIS_CHECK_H_
