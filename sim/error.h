// Errors that reach the user (tier 2 of the error policy in CONTRIBUTING.md).
//
// UserError: bad input (scenario, data file, command-line value). Its what() is the complete,
// user-facing text, already naming the origin: `file: /json/pointer: expected ..., got ...` or
// `file:line: ...`. Several problems may be joined, one per line. The program prints it and exits 1.
// DecodeError: a message bitstream that cannot be decoded (truncated or corrupted).
#ifndef COMMSIM_SIM_ERROR_H_
#define COMMSIM_SIM_ERROR_H_

#include <stdexcept>
#include <string>

namespace commsim {

class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& message) : std::runtime_error(message) {}
};

class DecodeError : public std::runtime_error {
 public:
  explicit DecodeError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace commsim

#endif  // COMMSIM_SIM_ERROR_H_
