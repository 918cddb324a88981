// Always-on invariant checks (tier 1 of the error policy in CONTRIBUTING.md).
//
// COMMSIM_CHECK(cond, fmt, args...) aborts with file:line, the condition and a formatted message
// when `cond` is false, in every build type. Use it for programming errors only; user input is
// validated in scenarios/ and reported as a UserError (see base/error.h).
#ifndef COMMSIM_BASE_CHECK_H_
#define COMMSIM_BASE_CHECK_H_

#include <fmt/format.h>

#include <string>

namespace commsim::internal {
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition,
                              const std::string& message);
}  // namespace commsim::internal

#define COMMSIM_CHECK(cond, ...)                                                                  \
  do {                                                                                            \
    if (!(cond)) [[unlikely]] {                                                                   \
      ::commsim::internal::CheckFailed(__FILE__, __LINE__, #cond, ::fmt::format("" __VA_ARGS__)); \
    }                                                                                             \
  } while (false)

#endif  // COMMSIM_BASE_CHECK_H_
