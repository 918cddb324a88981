// The axes of a sweep file (scenarios/sweep.h): each axis is read with the same config machinery
// as scenarios (unknown keys are errors with a did-you-mean), its values from "values",
// "linspace" or "logspace", and the axes are checked together (unique names, settable pointers,
// point count, zip lengths).
#ifndef COMMSIM_SCENARIOS_SWEEP_AXIS_H_
#define COMMSIM_SCENARIOS_SWEEP_AXIS_H_

#include <nlohmann/json.hpp>
#include <vector>

#include "scenarios/json_config.h"
#include "scenarios/sweep.h"

namespace commsim {

// Reads the sweep document's "axes" value (at /axes); `base` is the base scenario with `set`
// applied, in which every axis pointer must be settable. Problems go to `errors`; the axes that
// parsed are returned.
std::vector<SweepAxis> ParseAxes(const nlohmann::json& axes, const nlohmann::json& base, bool zip,
                                 ErrorList& errors);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_AXIS_H_
