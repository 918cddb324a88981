// Input files a user names (scenarios, sweeps, data files) are checked before they are read, so a
// missing file, a folder, a device or a huge file is a clear UserError instead of a hang or a
// bad_alloc.
#ifndef COMMSIM_SIM_INPUT_FILE_H_
#define COMMSIM_SIM_INPUT_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace commsim {

// What kind of file is expected, and how large it may be.
struct InputFileRule {
  std::string_view noun;       // e.g. "JSON file": "(a JSON file is expected)"
  uintmax_t max_bytes = 0;     // the size limit
  std::string_view max_shown;  // the limit as the user reads it, e.g. "64 MiB"
};

// Returns the size of `path` in bytes when it is a regular file of at most rule.max_bytes.
// Otherwise throws UserError: "<path>: cannot open <noun>", "<path>: not a regular file (a <noun>
// is expected)" or "<path>: <size> bytes is more than the <max_shown> a <noun> may have".
uintmax_t CheckInputFile(const std::string& path, const InputFileRule& rule);

}  // namespace commsim

#endif  // COMMSIM_SIM_INPUT_FILE_H_
