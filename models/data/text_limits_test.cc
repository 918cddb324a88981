// Hostile data files: indices and labels at the edges of their types, sizes beyond the limits,
// files that are not regular files. Each is an error naming file:line before anything large is
// allocated, never a wrong value placed somewhere else.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "base/error.h"
#include "base/error_test_util.h"
#include "models/data/text_formats.h"

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
  const std::string expected =
      "t.svm:1: expected a feature index, an integer in [1, 16777216], got ";
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

TEST(DataLimitsTest, LibsvmIndicesAreStrictlyIncreasingOnALine) {
  EXPECT_EQ(LibsvmError("1 1:1 2:2\n0 2:1 2:3\n"), "t.svm:2: duplicate feature index 2");
  EXPECT_EQ(LibsvmError("1 3:1 1:2\n"),
            "t.svm:1: feature index 1 after 3: indices must be increasing on a line (the LIBSVM "
            "convention)");
  EXPECT_EQ(LibsvmError("1 1:1 qid:4 2:2\n0 1:2\n"), "(no error)");  // qid is not a feature
}

TEST(DataLimitsTest, FeatureValuesMustBeFinite32BitFloats) {
  // FLT_MAX = 3.40282347e38: 3.4e38 fits, 3.5e38 and 1e39 do not.
  EXPECT_EQ(LibsvmError("1 1:3.4e38\n0 1:-3.4e38\n"), "(no error)");
  EXPECT_EQ(LibsvmError("1 1:1 2:1e39\n"),
            "t.svm:1: feature 2: value '1e39' is outside the range of a 32-bit float (magnitude "
            "at most 3.4028235e+38)");
  EXPECT_EQ(LibsvmError("1 1:-3.5e38\n").substr(0, 40), "t.svm:1: feature 1: value '-3.5e38' is o");
  EXPECT_EQ(LibsvmError("1 1:inf\n"), "t.svm:1: feature 1: expected a number, got 'inf'");
  EXPECT_EQ(CsvError("1e39,1\n").substr(0, 55),
            "t.csv:1: column 1: value '1e39' is outside the range of");
  EXPECT_EQ(CsvError("0.5,1e39\n"),  // the label column holds doubles: a class too large
            "t.csv:1: label 1e+39 is too large a class: with \"classes\" 0 (inferred) labels "
            "must be integers in [0, 100000) (or all -1/+1)");
}

// 16 bytes a value against the budget, checked before the matrix is allocated: 3 samples x 43691
// features = 131073 values = 2097168 bytes, just over 2 MiB; 43690 features (2096640) fit.
TEST(DataLimitsTest, TheMemoryBudgetIsCheckedBeforeAllocation) {
  LibsvmOptions two_mib;
  two_mib.max_memory_bytes = 2 << 20;
  EXPECT_EQ(LibsvmError("1 1:1\n0 1:1\n1 43690:1\n", two_mib), "(no error)");
  EXPECT_EQ(LibsvmError("1 1:1\n0 1:1\n1 43691:1\n", two_mib),
            "t.svm: 3 samples x 43691 features would take 2097168 bytes (2.0 MiB) in memory (16 "
            "per value: the data set is held twice while it is loaded and split), more than the "
            "memory budget of 2097152 bytes (2.0 MiB); raise \"limits\": {\"max_memory\": ...} in "
            "the scenario (bytes) if the machine has the memory");
  // CSV rows are charged as they are read: 2 features, 32 bytes a row; 1 MiB holds 32768 rows.
  CsvOptions one_mib;
  one_mib.max_memory_bytes = 1 << 20;
  std::string rows;
  for (int i = 0; i < 32769; ++i) rows += "1,2,0\n";
  EXPECT_EQ(CsvError(rows, one_mib).substr(0, 79),
            "t.csv:32769: 32769 samples x 2 features would take 1048608 bytes (1.0 MiB) in m");
}

TEST(DataLimitsTest, FilesMustBeRegularFiles) {
  EXPECT_EQ(
      [] {
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
