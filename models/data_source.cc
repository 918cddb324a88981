#include "models/data_source.h"

#include <fmt/format.h>

#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "models/data/cache.h"
#include "models/data/raw_sources.h"
#include "models/data/text_formats.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kTasks = {"classification", "regression"};
constexpr std::array<std::string_view, 4> kDelimiters = {",", ";", "tab", "space"};

void DescribeTask(ParamVisitor& v, std::string& task, int64_t& classes) {
  v.Text("task", task, kTasks, "classification (integer labels) or regression (real targets)");
  v.Int("classes", classes, Range::Closed(0, kMaxClasses),
        "number of classes (0 = infer: -1/+1 labels or 0..max label)");
}

// samples x features (and features x classes) within kMaxDataValues, checked without overflow.
void ValidateSize(ParamProblems& problems, int64_t samples, int64_t features, int64_t classes) {
  int64_t values = 0;
  for (const auto& [n, what] : {std::pair{samples, "samples"}, std::pair{classes, "classes"}}) {
    if (__builtin_mul_overflow(n, features, &values) || values > kMaxDataValues) {
      problems.Add("", fmt::format("{} {} x {} features is more than the {} values (8 GiB) a data "
                                   "set may hold",
                                   n, what, features, kMaxDataValues));
      return;
    }
  }
}

LabelOptions Labels(const std::string& task, int64_t classes) {
  return LabelOptions{task == "classification", static_cast<int>(classes)};
}

}  // namespace

void DataOptions::Describe(ParamVisitor& v) {
  v.Bool("standardize", standardize,
         "scale every feature to zero mean and unit variance (training-set statistics)");
  v.Real("test_fraction", test_fraction, Range::ClosedOpen(0.0, 1.0),
         "fraction of the samples held out as the test set (seeded, stratified by class)");
  v.Int("max_samples", max_samples, Range::AtLeast(0),
        "use a seeded random subset of this many samples (0 = all)");
}

void SyntheticRegressionConfig::Describe(ParamVisitor& v) {
  v.Int("samples", samples, Range::Closed(1, kMaxDataValues), "number of samples (rows of A)");
  v.Int("features", features, Range::Closed(1, kMaxFeatures), "number of features (columns of A)");
  v.Real("noise", noise, Range::NonNegative(), "standard deviation of the Gaussian label noise");
  v.Int("seed_offset", seed_offset, Range::AtLeast(0),
        "added to the scenario seed's data stream: another draw of the same problem");
  options.Describe(v);
}

void SyntheticRegressionConfig::Validate(ParamProblems& problems) const {
  ValidateSize(problems, samples, features, 1);
}

void SyntheticClassificationConfig::Validate(ParamProblems& problems) const {
  ValidateSize(problems, samples, features, classes);
}

void SyntheticClassificationConfig::Describe(ParamVisitor& v) {
  v.Int("samples", samples, Range::Closed(2, kMaxDataValues), "number of samples");
  v.Int("features", features, Range::Closed(1, kMaxFeatures), "number of features");
  v.Int("classes", classes, Range::Closed(2, kMaxClasses), "number of classes");
  v.Real("separation", separation, Range::NonNegative(),
         "standard deviation of the class means (unit-variance noise around them)");
  v.Int("seed_offset", seed_offset, Range::AtLeast(0), "another draw of the same problem");
  options.Describe(v);
}

void LibsvmDataConfig::Describe(ParamVisitor& v) {
  v.Text("path", path, {}, "LIBSVM/SVMlight file: 'label index:value ...', indices from 1");
  DescribeTask(v, task, classes);
  v.Int("features", features, Range::Closed(0, kMaxFeatures),
        "number of features (0 = the largest index in the file)");
  options.Describe(v);
}

void LibsvmDataConfig::Validate(ParamProblems& problems) const {
  if (path.empty()) problems.Add("path", "a data file path is required");
}

void CsvDataConfig::Describe(ParamVisitor& v) {
  v.Text("path", path, {}, "CSV file, one sample per row");
  v.Int("label_column", label_column, Range::Any(),
        "0-based column of the label; negative counts from the end (-1 = last)");
  v.Bool("header", header, "the first row holds column names");
  v.Text("delimiter", delimiter, kDelimiters, "field separator");
  DescribeTask(v, task, classes);
  options.Describe(v);
}

void CsvDataConfig::Validate(ParamProblems& problems) const {
  if (path.empty()) problems.Add("path", "a data file path is required");
}

namespace {

// A synthetic data set's start: its size checked against the memory budget, its name, and
// features of d rows by n samples (values to be filled); its draws come from `rng`, a stream of
// its own named after it.
Dataset SyntheticStart(std::string_view name, int64_t samples, int64_t features,
                       int64_t seed_offset, uint64_t seed, int64_t max_memory_bytes, Rng* rng) {
  CheckedDataValues(name, samples, features, max_memory_bytes);
  *rng = Rng(seed, static_cast<uint64_t>(seed_offset), name);
  Dataset data;
  data.name = std::string(name);
  data.features.resize(static_cast<Eigen::Index>(features), static_cast<Eigen::Index>(samples));
  return data;
}

}  // namespace

Dataset LoadSyntheticRegression(const SyntheticRegressionConfig& c, uint64_t seed,
                                int64_t max_memory_bytes) {
  Rng rng(0);
  Dataset data = SyntheticStart("synthetic_regression", c.samples, c.features, c.seed_offset, seed,
                                max_memory_bytes, &rng);
  const auto n = static_cast<Eigen::Index>(c.samples);
  const auto d = static_cast<Eigen::Index>(c.features);
  for (Eigen::Index i = 0; i < data.features.size(); ++i) data.features.data()[i] = rng.Normal();
  Eigen::VectorXd x_true(d);
  for (Eigen::Index j = 0; j < d; ++j) x_true[j] = rng.Normal();
  data.targets.noalias() = data.features.transpose() * x_true;
  for (Eigen::Index i = 0; i < n; ++i) data.targets[i] += c.noise * rng.Normal();
  return data;
}

Dataset LoadSyntheticClassification(const SyntheticClassificationConfig& c, uint64_t seed,
                                    int64_t max_memory_bytes) {
  Rng rng(0);
  Dataset data = SyntheticStart("synthetic_classification", c.samples, c.features, c.seed_offset,
                                seed, max_memory_bytes, &rng);
  data.num_classes = static_cast<int>(c.classes);
  const auto n = static_cast<Eigen::Index>(c.samples);
  const auto d = static_cast<Eigen::Index>(c.features);
  Eigen::MatrixXd means(d, c.classes);
  for (Eigen::Index i = 0; i < means.size(); ++i) means.data()[i] = c.separation * rng.Normal();
  data.targets.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto label = static_cast<Eigen::Index>(i % c.classes);
    data.targets[i] = static_cast<double>(label);
    for (Eigen::Index j = 0; j < d; ++j) data.features(j, i) = means(j, label) + rng.Normal();
  }
  return data;
}

Dataset LoadLibsvmData(const LibsvmDataConfig& c, uint64_t, int64_t max_memory_bytes) {
  LibsvmOptions options;
  options.max_memory_bytes = max_memory_bytes;
  options.labels = Labels(c.task, c.classes);
  options.num_features = c.features;
  return LoadLibsvm(c.path, options);
}

Dataset LoadCsvData(const CsvDataConfig& c, uint64_t, int64_t max_memory_bytes) {
  CsvOptions options;
  options.max_memory_bytes = max_memory_bytes;
  options.labels = Labels(c.task, c.classes);
  options.header = c.header;
  options.label_column = c.label_column;
  options.delimiter = c.delimiter == "tab" ? '\t' : c.delimiter == "space" ? ' ' : c.delimiter[0];
  return LoadCsv(c.path, options);
}

Dataset LoadBuiltinData(const BuiltinDataConfig& c, uint64_t, int64_t) {
  return LoadBuiltin(c.cache_name);
}

Dataset LoadBuiltin(std::string_view name) { return ReadBuiltinCache(DataDir(), name); }

}  // namespace commsim
