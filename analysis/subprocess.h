// Running a helper program (gnuplot) without a shell: the program is started directly with an
// argument vector, so no argument, path or file name is ever parsed by /bin/sh.
//
// Contract of RunProgram:
//   - `program` is an absolute path (as returned by FindProgram); `args` become argv[1..] verbatim.
//   - The child runs in `working_dir`, reads /dev/null as stdin, and its stdout and stderr both go
//     into one pipe that the parent reads to the end (at most `max_output_bytes` are kept).
//   - The child inherits the environment. The call blocks until the child exits.
//   - Throws UserError when the program cannot be started (missing, not executable, bad folder).
#ifndef COMMSIM_ANALYSIS_SUBPROCESS_H_
#define COMMSIM_ANALYSIS_SUBPROCESS_H_

#include <cstddef>
#include <string>
#include <vector>

namespace commsim {

struct ProgramResult {
  int exit_code = -1;  // the child's exit status, or -1 when it was killed by a signal
  int signal = 0;      // the signal that ended it, or 0
  std::string output;  // stdout and stderr interleaved, truncated to max_output_bytes
  bool ok() const { return exit_code == 0; }
};

ProgramResult RunProgram(const std::string& program, const std::vector<std::string>& args,
                         const std::string& working_dir, size_t max_output_bytes = 1 << 20);

// Absolute path of `program` found on PATH (or of `program` itself when it contains '/' and is
// executable); "" when not found. Absolute, so it stays valid after the child changes folder.
std::string FindProgram(const std::string& program);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_SUBPROCESS_H_
