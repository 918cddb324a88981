// Data files: round trips of the text readers and the cache, every bad-file message, and the
// `commsim data build` conversion on small raw files written here.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "base/error_test_util.h"
#include "models/data/cache.h"
#include "models/data/raw_sources.h"
#include "models/data/text_formats.h"

namespace commsim {
namespace {

using test_errors::ErrorOf;

namespace fs = std::filesystem;

// A fresh folder under the build tree, removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::path(COMMSIM_BINARY_DIR) / "test_tmp" / name) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string Write(const std::string& file, const std::string& text) const {
    const fs::path p = path_ / file;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

Dataset Csv(const std::string& text, CsvOptions options = {}) {
  std::istringstream in(text);
  return ParseCsv(in, "t.csv", options);
}

Dataset Libsvm(const std::string& text, LibsvmOptions options = {}) {
  std::istringstream in(text);
  return ParseLibsvm(in, "t.svm", options);
}

TEST(CsvTest, ReadsHeaderLabelColumnAndComments) {
  CsvOptions options;
  options.header = true;
  options.label_column = 0;
  const Dataset d = Csv("y,a,b\n# comment\n1,0.5,-2\n\n0,3e2,+4\n2,1,1\r\n", options);
  ASSERT_EQ(d.num_samples(), 3);
  ASSERT_EQ(d.num_features(), 2);
  EXPECT_EQ(d.num_classes, 3);
  EXPECT_DOUBLE_EQ(d.features(0, 1), 300.0);
  EXPECT_DOUBLE_EQ(d.features(1, 0), -2.0);
  EXPECT_DOUBLE_EQ(d.targets[2], 2.0);
}

TEST(CsvTest, RegressionAndPlusMinusOneLabels) {
  CsvOptions options;
  options.labels.classification = false;
  const Dataset r = Csv("1,2,0.25\n3,4,-7.5\n", options);
  EXPECT_EQ(r.num_classes, 0);
  EXPECT_DOUBLE_EQ(r.targets[1], -7.5);
  const Dataset c = Csv("1,2,-1\n3,4,1\n", {});
  EXPECT_EQ(c.num_classes, 2);
  EXPECT_DOUBLE_EQ(c.targets[0], 0.0);
  EXPECT_DOUBLE_EQ(c.targets[1], 1.0);
}

TEST(CsvTest, BadFilesNameLineAndProblem) {
  EXPECT_EQ(ErrorOf([] { Csv("1,2,0\n1,0\n"); }),
            "t.csv:2: missing column: expected 3 columns (as on line 1), found 2");
  EXPECT_EQ(ErrorOf([] { Csv("1,2,0\n1,0,1,1\n"); }),
            "t.csv:2: inconsistent feature count: expected 3 columns (as on line 1), found 4");
  EXPECT_EQ(ErrorOf([] { Csv("1,2,0\n1,abc,1\n"); }),
            "t.csv:2: column 2: expected a number, got 'abc'");
  EXPECT_EQ(ErrorOf([] { Csv("1,,0\n"); }),
            "t.csv:1: column 2: expected a number, got an empty field");
  CsvOptions three;
  three.labels.num_classes = 3;
  EXPECT_EQ(ErrorOf([&] { Csv("1,2,0\n1,2,3\n", three); }),
            "t.csv:2: label 3 out of range, expected an integer in [0, 3)");
  EXPECT_EQ(ErrorOf([] { Csv("1,2,0.5\n"); }), "t.csv:1: label 0.5 is not an integer class");
  CsvOptions bad_column;
  bad_column.label_column = 5;
  EXPECT_NE(
      ErrorOf([&] { Csv("1,2,0\n", bad_column); }).find("t.csv:1: label_column 5 does not exist"),
      std::string::npos);
  EXPECT_EQ(ErrorOf([] { Csv("# only a comment\n"); }), "t.csv: no samples found");
  EXPECT_EQ(ErrorOf([] { LoadCsv("/nonexistent/x.csv", {}); }),
            "/nonexistent/x.csv: cannot open data file");
}

TEST(LibsvmTest, ReadsSparseRowsIntoDenseColumns) {
  const Dataset d = Libsvm("+1 1:0.5 3:2 # tail comment\n-1 2:-1\n\n-1 qid:3 3:4\n");
  ASSERT_EQ(d.num_samples(), 3);
  ASSERT_EQ(d.num_features(), 3);
  EXPECT_EQ(d.num_classes, 2);
  EXPECT_DOUBLE_EQ(d.features(0, 0), 0.5);
  EXPECT_DOUBLE_EQ(d.features(1, 0), 0.0);
  EXPECT_DOUBLE_EQ(d.features(2, 0), 2.0);
  EXPECT_DOUBLE_EQ(d.features(1, 1), -1.0);
  EXPECT_DOUBLE_EQ(d.features(2, 2), 4.0);
  EXPECT_DOUBLE_EQ(d.targets[0], 1.0);
  EXPECT_DOUBLE_EQ(d.targets[1], 0.0);
  LibsvmOptions wide;
  wide.num_features = 10;
  EXPECT_EQ(Libsvm("0 1:1\n1 2:1\n", wide).num_features(), 10);
}

TEST(LibsvmTest, BadFilesNameLineAndProblem) {
  EXPECT_EQ(ErrorOf([] { Libsvm("1 1:1\nx 1:2\n"); }),
            "t.svm:2: expected a numeric label first, got 'x'");
  EXPECT_EQ(ErrorOf([] { Libsvm("1 1:1 2\n"); }), "t.svm:1: expected index:value, got '2'");
  EXPECT_EQ(ErrorOf([] { Libsvm("1 0:1\n"); }),
            "t.svm:1: expected a feature index, an integer in [1, 16777216], got '0'");
  EXPECT_EQ(ErrorOf([] { Libsvm("1 2:zz\n"); }), "t.svm:1: feature 2: expected a number, got 'zz'");
  LibsvmOptions narrow;
  narrow.num_features = 2;
  EXPECT_EQ(ErrorOf([&] { Libsvm("1 1:1\n0 3:1\n", narrow); }),
            "t.svm:2: inconsistent feature count: index 3 exceeds features = 2");
  LibsvmOptions two;
  two.labels.num_classes = 2;
  EXPECT_EQ(ErrorOf([&] { Libsvm("0 1:1\n7 1:1\n", two); }),
            "t.svm:2: label 7 out of range, expected an integer in [0, 2)");
}

TEST(LoaderFileTest, FilesRoundTripThroughDiskAndCache) {
  TempDir dir("loader_roundtrip");
  const std::string csv = dir.Write("d.csv", "0.25,-1,1\n2,3.5,0\n");
  const std::string svm = dir.Write("d.svm", "1 1:0.25 2:-1\n0 1:2 2:3.5\n");
  const Dataset a = LoadCsv(csv, {});
  const Dataset b = LoadLibsvm(svm, {});
  EXPECT_EQ(a.features, b.features);
  EXPECT_EQ(a.targets, b.targets);
  Dataset with_shape = a;
  with_shape.image_shape = {1, 2, 1};
  const std::string cache = dir.path() + "/cache/x.bin";
  WriteDatasetCache(with_shape, cache);
  const Dataset c = ReadDatasetCache(cache, "x");
  EXPECT_EQ(c.features, a.features);  // values exact in fp32
  EXPECT_EQ(c.targets, a.targets);
  EXPECT_EQ(c.num_classes, 2);
  EXPECT_EQ(c.image_shape, with_shape.image_shape);
  EXPECT_FALSE(fs::exists(cache + ".tmp"));
}

TEST(LoaderFileTest, MissingOrCorruptCacheSaysHowToBuildIt) {
  TempDir dir("loader_cache_errors");
  const std::string missing = dir.path() + "/cache/mnist.bin";
  EXPECT_EQ(ErrorOf([&] { ReadDatasetCache(missing, "mnist"); }),
            missing + ": data cache for 'mnist' is missing; build it with `./commsim data build`");
  const std::string junk = dir.Write("cache/junk.bin", "not a cache at all");
  EXPECT_EQ(ErrorOf([&] { ReadDatasetCache(junk, "junk"); }),
            junk +
                ": not a valid commsim data cache (bad magic); rebuild it with "
                "`./commsim data build --force`");
}

TEST(LoaderFileTest, MnistJsonParserChecksCounts) {
  std::vector<float> pixels;
  std::vector<double> labels;
  std::string json = "{ \"data\": [";
  for (int i = 0; i < 2 * 784; ++i) json += i == 5 ? "0.5," : "0,";
  json.back() = ']';
  json += "}";
  ParseMnistDigitJson(json, "3.json", 3, pixels, labels);
  EXPECT_EQ(labels, (std::vector<double>{3.0, 3.0}));
  EXPECT_FLOAT_EQ(pixels[5], 0.5f);
  EXPECT_EQ(
      ErrorOf([&] { ParseMnistDigitJson("{\"data\": [0, 1]}", "x.json", 0, pixels, labels); }),
      "x.json: 2 pixel values, expected a positive multiple of 784");
  EXPECT_EQ(
      ErrorOf([&] { ParseMnistDigitJson("{\"data\": [0, 7]}", "x.json", 0, pixels, labels); }),
      "x.json: pixel 1: expected a number in [0, 1], got '7]}'");
  EXPECT_EQ(ErrorOf([&] { ParseMnistDigitJson("[]", "x.json", 0, pixels, labels); }),
            "x.json: expected a JSON object with a \"data\" array");
}

// Writes a minimal raw tree (one digit per class, a few sklearn rows) under dir/raw.
void WriteSmallRaw(const TempDir& dir) {
  std::string digit = "{\"data\": [";
  for (int i = 0; i < 784; ++i) digit += "0.25,";
  digit.back() = ']';
  digit += "}";
  for (int d = 0; d < 10; ++d)
    dir.Write("raw/mnist/src/digits/" + std::to_string(d) + ".json", digit);
  dir.Write("raw/sklearn/breast_cancer.csv", "2,2,malignant,benign\n1,2,0\n3,4,1\n");
  dir.Write("raw/sklearn/wine_data.csv", "3,1,a,b,c\n1,0\n2,1\n3,2\n");
  dir.Write("raw/sklearn/iris.csv", "3,1,a,b,c\n1,0\n2,1\n3,2\n");
  // The .gz files are real gzip streams, written with zlib.
  auto gz = [&](const std::string& rel, const std::string& text) {
    const std::string path = dir.path() + "/raw/sklearn/" + rel;
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
  };
  std::string digits_row;
  for (int i = 0; i < 64; ++i) digits_row += "1,";
  gz("digits.csv.gz", digits_row + "7\n" + digits_row + "2\n");
  gz("diabetes_data_raw.csv.gz", "1 2 3 4 5 6 7 8 9 10\n2 3 4 5 6 7 8 9 10 11\n");
  gz("diabetes_target.csv.gz", "1.5e+02\n7.5e+01\n");
}

TEST(DataBuildTest, ConvertsOnceThenSkipsUntilRawChanges) {
  TempDir dir("data_build");
  WriteSmallRaw(dir);
  const DataBuildReport first = BuildDataCache(dir.path(), false);
  EXPECT_EQ(first.built.size(), BuiltinDatasets().size());
  EXPECT_TRUE(first.up_to_date.empty());
  const Dataset mnist = ReadDatasetCache(CachePath(dir.path(), "mnist"), "mnist");
  EXPECT_EQ(mnist.num_samples(), 10);
  EXPECT_EQ(mnist.num_classes, 10);
  EXPECT_EQ(mnist.image_shape, (std::vector<int>{1, 28, 28}));
  EXPECT_DOUBLE_EQ(mnist.targets[9], 9.0);
  const Dataset digits = ReadDatasetCache(CachePath(dir.path(), "digits"), "digits");
  EXPECT_EQ(digits.num_features(), 64);
  EXPECT_DOUBLE_EQ(digits.targets[0], 7.0);
  const Dataset diabetes = ReadDatasetCache(CachePath(dir.path(), "diabetes"), "diabetes");
  EXPECT_EQ(diabetes.num_features(), 10);
  EXPECT_EQ(diabetes.num_classes, 0);
  EXPECT_DOUBLE_EQ(diabetes.features(9, 1), 11.0);
  EXPECT_DOUBLE_EQ(diabetes.targets[1], 75.0);
  EXPECT_EQ(ReadDatasetCache(CachePath(dir.path(), "breast_cancer"), "b").num_features(), 2);

  const DataBuildReport second = BuildDataCache(dir.path(), false);
  EXPECT_TRUE(second.built.empty());
  EXPECT_EQ(second.up_to_date.size(), BuiltinDatasets().size());

  const fs::path iris_raw = dir.path() + "/raw/sklearn/iris.csv";
  fs::last_write_time(iris_raw,
                      fs::last_write_time(CachePath(dir.path(), "iris")) + std::chrono::seconds(5));
  const DataBuildReport third = BuildDataCache(dir.path(), false);
  EXPECT_EQ(third.built, (std::vector<std::string>{"iris"}));
  EXPECT_EQ(BuildDataCache(dir.path(), true).built.size(), BuiltinDatasets().size());
}

TEST(DataBuildTest, MissingRawDataNamesTheFetchScript) {
  TempDir dir("data_build_missing");
  const std::string message = ErrorOf([&] { BuildDataCache(dir.path(), false); });
  EXPECT_EQ(message, dir.path() +
                         "/raw/mnist/src/digits/0.json: raw data for 'mnist' is "
                         "missing; fetch it with `scripts/fetch_data.sh` (or "
                         "`scripts/bootstrap.sh`)");
}

}  // namespace
}  // namespace commsim
