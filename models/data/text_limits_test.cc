// Hostile data files: indices and labels at the edges of their types, sizes beyond the limits,
// files that are not regular files. Each is an error naming file:line before anything large is
// allocated, never a wrong value placed somewhere else.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "models/data/text_formats.h"
#include "sim/error.h"
#include "sim/error_test_util.h"

namespace commsim {
namespace {

std::string LibsvmError(const std::string& text, LibsvmOptions options = {}) {
  std::istringstream in(text);
  return test_errors::ErrorOf([&] { ParseLibsvm(in, "t.svm", options); });
}

std::string CsvError(const std::string& text, CsvOptions options = {}) {
  std::istringstream in(text);
  return test_errors::ErrorOf([&] { ParseCsv(in, "t.csv", options); });
}

TEST(DataLimitsTest, LibsvmIndicesMustBeIntegersWithinTheFeatureLimit) {
  const std::string expected = "t.svm:1: expected a feature index, an integer in [1, 16777216], got ";
  EXPECT_EQ(LibsvmError("1 4611686018427387904:1\n"), expected + "'4611686018427387904'");
  EXPECT_EQ(LibsvmError("1 1e300:1\n"), expected + "'1e300'");  // was accepted, landing elsewhere
  EXPECT_EQ(LibsvmError("1 99999999999999999999999:1\n"), expected + "'99999999999999999999999'");
  EXPECT_EQ(LibsvmError("1 16777217:1\n"), expected + "'16777217'");
  EXPECT_EQ(LibsvmError("1 -3:1\n"), expected + "'-3'");
  EXPECT_EQ(LibsvmError("1 2.0:1\n"), expected + "'2.0'");
  // The largest index is fine on its own, but 16777216 features x 100 samples is too many values.
  std::string many;
  for (int i = 0; i < 100; ++i) many += "1 16777216:1\n";
  EXPECT_EQ(LibsvmError(many),
            "t.svm: 100 samples x 16777216 features is more than the 1073741824 values (8 GiB) a "
            "data set may hold");
}

TEST(DataLimitsTest, InferredClassesAreBoundedAndHugeLabelsAreErrors) {
  EXPECT_EQ(CsvError("0.5,1\n0.25,2147483647\n"),
            "t.csv:2: label 2147483647 is too large a class: with \"classes\" 0 (inferred) labels "
            "must be integers in [0, 100000) (or all -1/+1)");
  EXPECT_EQ(CsvError("0.5,1e300\n"),
            "t.csv:1: label 1e+300 is too large a class: with \"classes\" 0 (inferred) labels "
            "must be integers in [0, 100000) (or all -1/+1)");
  EXPECT_EQ(LibsvmError("99999 1:1\n0 1:2\n"), "(no error)");  // 100000 classes: the limit
  EXPECT_EQ(LibsvmError("1e300 1:1\n"),
            "t.svm:1: label 1e+300 is too large a class: with \"classes\" 0 (inferred) labels "
            "must be integers in [0, 100000) (or all -1/+1)");
  CsvOptions three;
  three.labels.num_classes = 3;
  EXPECT_EQ(CsvError("0.5,2147483647\n", three),
            "t.csv:1: label 2147483647 out of range, expected an integer in [0, 3)");
}

TEST(DataLimitsTest, FilesMustBeRegularFiles) {
  EXPECT_EQ([] {
    try {
      LoadCsv("/dev/zero", {});
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  }(),
            "/dev/zero: not a regular file (a data file is expected)");
  EXPECT_THROW(LoadLibsvm(::testing::TempDir(), {}), UserError);
  EXPECT_THROW(LoadLibsvm("/nonexistent/x.svm", {}), UserError);
}

}  // namespace
}  // namespace commsim
