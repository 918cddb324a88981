// Plain-text description of a config's parameters, for `commsim list` and help output.
//
// DescribeParams walks Describe() and returns one line per field:
//   "  <key>  <type>  default <value>  <range>  <help>"
// e.g. "  bandwidth  real bit/s  default 1e+09  > 0  bandwidth of every link, each direction".
// Columns are aligned within one config. The config is only read (Describe takes it non-const).
#ifndef COMMSIM_SIM_PARAMS_TEXT_H_
#define COMMSIM_SIM_PARAMS_TEXT_H_

#include <string>
#include <string_view>

#include "sim/params.h"

namespace commsim {

// The one spelling of each unit, wherever a unit is shown (`commsim list`, docs tables, axes.csv,
// plot axes): "s", "bit/s", "bit", "FLOP/s", or "" for Unit::kNone.
std::string_view UnitSymbol(Unit unit);

// One line per field, each ending in '\n'; "  (no parameters)\n" when there are none.
std::string DescribeParams(Config& config, std::string_view indent = "  ");

}  // namespace commsim

#endif  // COMMSIM_SIM_PARAMS_TEXT_H_
