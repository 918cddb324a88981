// Dataset: samples held in memory as an Eigen matrix, one column per sample.
//
// Contract:
//   - features is (num_features x num_samples), column-major, so a contiguous range of samples is
//     a column block and a mini-batch is a gathered matrix usable directly in GEMMs.
//   - targets holds one value per sample: the class index 0..num_classes-1 (as a double) for a
//     classification set, the real-valued response for a regression set (num_classes == 0).
//   - image_shape, when not empty, is {channels, height, width} of a sample (MNIST: {1, 28, 28}).
// The helpers here (split, standardisation, reordering) never change a sample's (features, target)
// pairing, and every random choice comes from the Rng passed in.
#ifndef COMMSIM_MODELS_DATASET_H_
#define COMMSIM_MODELS_DATASET_H_

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/limits.h"
#include "base/rng.h"

namespace commsim {

// Size limits, checked before anything of that size is allocated (a UserError names the file or
// the config field). A data set is held as doubles: kMaxDataValues of them take 8 GiB.
inline constexpr int64_t kMaxDataValues = int64_t{1} << 30;  // samples x features
inline constexpr int64_t kMaxFeatures = int64_t{1} << 24;    // features per sample
inline constexpr int64_t kMaxClasses = 100000;               // classes of a classification set
inline constexpr int64_t kMaxModelDim = int64_t{1} << 28;    // parameters of a model (2 GiB)
inline constexpr uintmax_t kMaxDataFileBytes = uintmax_t{4} << 30;  // a data file, raw or cache

// Bytes a data set of `values` doubles is charged against the memory budget (limits.max_memory):
// 16 a value, since it is held twice at its peak (the loader's rows and the matrix; the whole set
// and its train/test split).
inline constexpr int64_t kDataBytesPerValue = 2 * sizeof(double);

// samples x features, or a UserError "<origin>: <samples> samples x <features> features is more
// than ..." when the product is negative or exceeds kMaxDataValues (computed without overflow),
// or "<origin>: <samples> samples x <features> features would take <bytes> bytes ..., more than
// the memory budget of <max_memory_bytes> bytes (limits.max_memory) ..." when the values times
// kDataBytesPerValue exceed max_memory_bytes. Call it before allocating the data set.
int64_t CheckedDataValues(std::string_view origin, int64_t samples, int64_t features,
                          int64_t max_memory_bytes);

// "<bytes> bytes (<x.y> GiB)" (MiB below 1 GiB), as the memory-budget messages show sizes.
std::string ShownBytes(int64_t bytes);

struct Dataset {
  std::string name;  // for messages: "mnist", "data/my.csv", ...
  Eigen::MatrixXd features;
  Eigen::VectorXd targets;
  int num_classes = 0;  // 0 = regression
  std::vector<int> image_shape;

  int64_t num_samples() const { return features.cols(); }
  int64_t num_features() const { return features.rows(); }
  bool is_classification() const { return num_classes > 0; }
  int label(int64_t i) const { return static_cast<int>(targets[i]); }
};

// The samples `indices` (in that order) of `data`.
Dataset Subset(const Dataset& data, std::span<const int64_t> indices);

struct TrainTest {
  Dataset train;
  Dataset test;
};

// Shuffles the samples with `rng` and puts round(test_fraction * N) of them in the test set
// (stratified per class for classification sets, so every class keeps its share).
// REQUIRES: 0 <= test_fraction < 1.
TrainTest SplitTrainTest(const Dataset& data, double test_fraction, Rng& rng);

// Scales each feature to zero mean and unit variance using the training set's statistics and
// applies the same affine map to the test set. Constant features are centred only.
void Standardize(Dataset& train, Dataset& test);

}  // namespace commsim

#endif  // COMMSIM_MODELS_DATASET_H_
