// Plain-text description of a config's parameters (for `commsim list` and help output).
//
// DescribeParams walks Config::Describe and prints one line per parameter:
//   "  key   type = default   range/choices   help"
// The config is only read (Describe takes a non-const reference because the same walk also
// writes when reading JSON).
#ifndef COMMSIM_SIM_PARAMS_TEXT_H_
#define COMMSIM_SIM_PARAMS_TEXT_H_

#include <string>

#include "sim/params.h"

namespace commsim {

// One line per parameter, each prefixed with `indent`; "" when the config has no parameters.
std::string DescribeParams(Config& config, std::string_view indent = "  ");

}  // namespace commsim

#endif  // COMMSIM_SIM_PARAMS_TEXT_H_
