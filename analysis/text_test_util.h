// Test helpers for text outputs (reports, gnuplot scripts, a command's output): expect each of a
// list of parts in a text, or none of them; a failure names the part and shows the text.
// Header-only; tests only.
#ifndef COMMSIM_ANALYSIS_TEXT_TEST_UTIL_H_
#define COMMSIM_ANALYSIS_TEXT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

// Not commsim::testing: inside namespace commsim that name would hide gtest's ::testing.
namespace commsim::test_text {

// Expects every one of `parts` in `text`.
inline void ExpectHas(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& part : parts) {
    EXPECT_NE(text.find(part), std::string::npos) << "no \"" << part << "\" in:\n" << text;
  }
}

// Expects none of `parts` in `text`.
inline void ExpectLacks(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& part : parts) {
    EXPECT_EQ(text.find(part), std::string::npos) << "\"" << part << "\" in:\n" << text;
  }
}

}  // namespace commsim::test_text

#endif  // COMMSIM_ANALYSIS_TEXT_TEST_UTIL_H_
