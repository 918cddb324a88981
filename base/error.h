// Errors that reach the user (tier 2 of the error policy in CONTRIBUTING.md).
//
// UserError: bad input (scenario, data file, command-line value). Its what() is the complete,
// user-facing text, already naming the origin: `file: /json/pointer: expected ..., got ...` or
// `file:line: ...`. Several problems may be joined, one per line. The program prints it and
// exits 1. SimulationLimitError: a run went past a limit that can only be seen while it runs
// (simulated time beyond the int64-picosecond range, too many events, too many packets in one
// message). It is a UserError whose text says what to change; it ends that run (one algorithm
// entry), and the caller may record the entry as failed and go on with the others. DecodeError: a
// message bitstream that cannot be decoded (truncated or corrupted).
#ifndef COMMSIM_BASE_ERROR_H_
#define COMMSIM_BASE_ERROR_H_

#include <stdexcept>
#include <string>

namespace commsim {

class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& message) : std::runtime_error(message) {}
};

class SimulationLimitError : public UserError {
 public:
  explicit SimulationLimitError(const std::string& message) : UserError(message) {}
};

class DecodeError : public std::runtime_error {
 public:
  explicit DecodeError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace commsim

#endif  // COMMSIM_BASE_ERROR_H_
