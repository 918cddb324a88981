// DataSource: where a problem's samples come from (the "dataset" component kind).
//
// Contract for every implementation:
//   - Load(seed, max_memory_bytes) returns all samples before the train/test split; synthetic
//     sources generate them from `seed` only (same seed -> same data), file sources ignore it.
//     A data set whose size (CheckedDataValues, dataset.h) exceeds max_memory_bytes is a
//     UserError before it is allocated (the built-in sets, a few MiB, are not checked).
//   - options() carries the choices every source shares: standardisation, the test fraction and
//     an optional cap on the number of samples (a seeded random subset), applied by BuildProblem.
//   - Bad files and missing caches are UserErrors naming the file (and line) and the fix.
#ifndef COMMSIM_MODELS_DATA_SOURCE_H_
#define COMMSIM_MODELS_DATA_SOURCE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/params.h"
#include "models/dataset.h"

namespace commsim {

struct DataOptions {
  bool standardize = false;
  double test_fraction = 0.2;
  int64_t max_samples = 0;  // 0 = all

  void Describe(ParamVisitor& v);
};

class DataSource {
 public:
  virtual ~DataSource() = default;
  virtual Dataset Load(uint64_t seed, int64_t max_memory_bytes) const = 0;
  virtual const DataOptions& options() const = 0;
  // The config key naming the file Load reads ("path"), or "" for sources without one; load
  // errors are reported at that key.
  virtual std::string_view file_key() const { return ""; }
};

// --- synthetic_regression: the DORE paper's convex test, b = A x_true + noise, A Gaussian.
struct SyntheticRegressionConfig final : ConfigBase<SyntheticRegressionConfig> {
  int64_t samples = 1200;
  int64_t features = 500;
  double noise = 0.1;
  int64_t seed_offset = 0;
  DataOptions options{false, 0.0, 0};
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;  // samples x features fits in memory
};

// --- synthetic_classification: Gaussian blobs, class means drawn N(0, separation^2 I).
struct SyntheticClassificationConfig final : ConfigBase<SyntheticClassificationConfig> {
  int64_t samples = 1000;
  int64_t features = 20;
  int64_t classes = 2;
  double separation = 1.0;
  int64_t seed_offset = 0;
  DataOptions options{false, 0.2, 0};
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;  // samples x features fits in memory
};

// --- a built-in set read from the cache (mnist, breast_cancer, digits, wine, iris, diabetes).
// `cache_name` is not a parameter: the registry entry of each built-in set fills it in (with its
// default for `standardize`), so one config type serves them all.
struct BuiltinDataConfig final : ConfigBase<BuiltinDataConfig> {
  std::string cache_name;
  DataOptions options;
  void Describe(ParamVisitor& v) override { options.Describe(v); }
};

// --- libsvm / csv: users' own files.
struct LibsvmDataConfig final : ConfigBase<LibsvmDataConfig> {
  std::string path;
  std::string task = "classification";
  int64_t classes = 0;
  int64_t features = 0;
  DataOptions options;
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

struct CsvDataConfig final : ConfigBase<CsvDataConfig> {
  std::string path;
  int64_t label_column = -1;
  bool header = false;
  std::string delimiter = ",";
  std::string task = "classification";
  int64_t classes = 0;
  DataOptions options;
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

// A DataSource made of its config and one load function: Load(seed, max_memory_bytes) =
// kLoad(config, seed, max_memory_bytes); kFileKey is file_key().
template <class Config, Dataset (*kLoad)(const Config&, uint64_t, int64_t), const char* kFileKey>
class ConfigSource final : public DataSource {
 public:
  explicit ConfigSource(const Config& c) : config_(c) {}
  Dataset Load(uint64_t seed, int64_t max_memory_bytes) const override {
    return kLoad(config_, seed, max_memory_bytes);
  }
  const DataOptions& options() const override { return config_.options; }
  std::string_view file_key() const override { return kFileKey; }

 private:
  Config config_;
};

inline constexpr char kNoFileKey[] = "";
inline constexpr char kPathKey[] = "path";

Dataset LoadSyntheticRegression(const SyntheticRegressionConfig& c, uint64_t seed,
                                int64_t max_memory_bytes);
Dataset LoadSyntheticClassification(const SyntheticClassificationConfig& c, uint64_t seed,
                                    int64_t max_memory_bytes);
// These ignore the seed; the built-in sets also the budget.
Dataset LoadBuiltinData(const BuiltinDataConfig& c, uint64_t seed, int64_t max_memory_bytes);
Dataset LoadLibsvmData(const LibsvmDataConfig& c, uint64_t seed, int64_t max_memory_bytes);
Dataset LoadCsvData(const CsvDataConfig& c, uint64_t seed, int64_t max_memory_bytes);

using SyntheticRegressionSource =
    ConfigSource<SyntheticRegressionConfig, LoadSyntheticRegression, kNoFileKey>;
using SyntheticClassificationSource =
    ConfigSource<SyntheticClassificationConfig, LoadSyntheticClassification, kNoFileKey>;
using BuiltinSource = ConfigSource<BuiltinDataConfig, LoadBuiltinData, kNoFileKey>;
using LibsvmSource = ConfigSource<LibsvmDataConfig, LoadLibsvmData, kPathKey>;
using CsvSource = ConfigSource<CsvDataConfig, LoadCsvData, kPathKey>;

// Reads the cached built-in set `name` from DataDir().
Dataset LoadBuiltin(std::string_view name);

}  // namespace commsim

#endif  // COMMSIM_MODELS_DATA_SOURCE_H_
