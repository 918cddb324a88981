// Test helper for the error-message tests of every module: the message of the UserError a piece
// of code throws. Header-only; tests only.
#ifndef COMMSIM_BASE_ERROR_TEST_UTIL_H_
#define COMMSIM_BASE_ERROR_TEST_UTIL_H_

#include <functional>
#include <string>

#include "base/error.h"

// Not commsim::testing: inside namespace commsim that name would hide gtest's ::testing.
namespace commsim::test_errors {

// The what() of the UserError (or of the Error subclass) `f` throws, or `if_none` when it
// returns. Any other exception propagates (the test fails on it).
template <class Error = UserError>
std::string ErrorOf(const std::function<void()>& f, const std::string& if_none = "(no error)") {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return if_none;
}

}  // namespace commsim::test_errors

#endif  // COMMSIM_BASE_ERROR_TEST_UTIL_H_
