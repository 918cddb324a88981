// Names that become folder names: a scenario's `name` (results/<name>/) and a sweep's `name`
// (results/<name>/), checked where each file is parsed so that no name can point outside results/.
#ifndef COMMSIM_SCENARIOS_OUTPUT_NAME_H_
#define COMMSIM_SCENARIOS_OUTPUT_NAME_H_

#include <string>
#include <string_view>

namespace commsim {

inline constexpr size_t kMaxOutputNameBytes = 100;

// "" when `name` is usable as one folder name: not empty, at most kMaxOutputNameBytes bytes, no
// '/', '\', "..", control characters, and not starting with '.'. Otherwise a message for an
// ErrorList line: "expected a name usable as a folder name (...), got \"../x\"".
std::string OutputNameProblem(std::string_view name);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_OUTPUT_NAME_H_
