// Plain-text description of a config's parameters, for `commsim list` and help output.
//
// DescribeParams walks Describe() and returns one line per field:
//   "  <key>  <type>  default <value>  <range>  <help>"
// e.g. "  bandwidth  real bit/s  default 1e+09  > 0  bandwidth of every link, each direction".
// Columns are aligned within one config. The config is only read (Describe takes it non-const).
// ParamRows gives the same fields unformatted, for other renderings (the docs' Markdown tables).
#ifndef COMMSIM_BASE_PARAMS_TEXT_H_
#define COMMSIM_BASE_PARAMS_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/params.h"

namespace commsim {

// The one spelling of each unit, wherever a unit is shown (`commsim list`, docs tables, axes.csv,
// plot axes): "s", "bit/s", "bit", "FLOP/s", or "" for Unit::kNone.
std::string_view UnitSymbol(Unit unit);
// What a value with this unit may look like, for "expected ..." messages: "seconds, e.g. 0.002,
// \"2ms\", \"50us\"", ..., "a number" for Unit::kNone. Read from the same table as UnitSymbol.
std::string_view UnitExamples(Unit unit);

// One field of a config, as its Describe() declares it.
struct ParamRow {
  std::string key;
  // "integer", "real", "bool", "text" or "list of real", then " <unit symbol>" for a field with a
  // unit ("real bit/s"); a component field's kind ("compressor").
  std::string type;
  // The default: "12", FormatReal for reals, "[a, b]" for lists, "true"/"false", the text as it
  // is, the component's name ("" for none).
  std::string value;
  std::string range;                         // Range::ToString(); "" for bool, text, component
  std::vector<std::string> choices;          // a text field's fixed choices (empty: any text)
  const ComponentSpec* component = nullptr;  // a component field's spec (in the config)
  std::string help;
};

// The fields of `config` in Describe() order. Rows point into `config` (component).
std::vector<ParamRow> ParamRows(Config& config);

// Integers below 1e6 in full, anything else in the shortest %g form that reads back exactly:
// 12000, 0.5, 1e+09, 2.5e-05.
std::string FormatReal(double x);

// One line per field, each ending in '\n'; "  (no parameters)\n" when there are none.
std::string DescribeParams(Config& config, std::string_view indent = "  ");

}  // namespace commsim

#endif  // COMMSIM_BASE_PARAMS_TEXT_H_
