#include "models/dataset.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/check.h"
#include "base/error.h"

namespace commsim {

std::string ShownBytes(int64_t bytes) {
  const bool gib = bytes >= (int64_t{1} << 30);
  return fmt::format("{} bytes ({:.1f} {})", bytes,
                     static_cast<double>(bytes) / static_cast<double>(gib ? 1 << 30 : 1 << 20),
                     gib ? "GiB" : "MiB");
}

int64_t CheckedDataValues(std::string_view origin, int64_t samples, int64_t features,
                          int64_t max_memory_bytes) {
  int64_t values = 0;
  if (samples < 0 || features < 0 || __builtin_mul_overflow(samples, features, &values) ||
      values > kMaxDataValues) {
    throw UserError(fmt::format(
        "{}: {} samples x {} features is more than the {} values (8 GiB) a data set may hold",
        origin, samples, features, kMaxDataValues));
  }
  if (values * kDataBytesPerValue > max_memory_bytes) {
    throw UserError(fmt::format(
        "{}: {} samples x {} features would take {} in memory ({} per value: the data set is "
        "held twice while it is loaded and split), more than the memory budget of {}; raise "
        "\"limits\": {{\"max_memory\": ...}} in the scenario (bytes) if the machine has the "
        "memory",
        origin, samples, features, ShownBytes(values * kDataBytesPerValue), kDataBytesPerValue,
        ShownBytes(max_memory_bytes)));
  }
  return values;
}

Dataset Subset(const Dataset& data, std::span<const int64_t> indices) {
  Dataset out;
  out.name = data.name;
  out.num_classes = data.num_classes;
  out.image_shape = data.image_shape;
  out.features.resize(data.num_features(), static_cast<Eigen::Index>(indices.size()));
  out.targets.resize(static_cast<Eigen::Index>(indices.size()));
  for (size_t j = 0; j < indices.size(); ++j) {
    COMMSIM_CHECK(indices[j] >= 0 && indices[j] < data.num_samples(), "index {} out of range",
                  indices[j]);
    out.features.col(static_cast<Eigen::Index>(j)) = data.features.col(indices[j]);
    out.targets[static_cast<Eigen::Index>(j)] = data.targets[indices[j]];
  }
  return out;
}

TrainTest SplitTrainTest(const Dataset& data, double test_fraction, Rng& rng) {
  COMMSIM_CHECK(test_fraction >= 0.0 && test_fraction < 1.0, "test_fraction {}", test_fraction);
  const int64_t n = data.num_samples();
  // Group the sample indices: one group per class, or a single group for regression.
  const int groups = std::max(1, data.num_classes);
  std::vector<std::vector<int64_t>> by_group(static_cast<size_t>(groups));
  for (int64_t i = 0; i < n; ++i) {
    by_group[static_cast<size_t>(data.is_classification() ? data.label(i) : 0)].push_back(i);
  }
  std::vector<int64_t> train_idx, test_idx;
  for (std::vector<int64_t>& g : by_group) {
    std::shuffle(g.begin(), g.end(), rng);
    const auto n_test =
        static_cast<size_t>(std::llround(test_fraction * static_cast<double>(g.size())));
    test_idx.insert(test_idx.end(), g.begin(), g.begin() + static_cast<std::ptrdiff_t>(n_test));
    train_idx.insert(train_idx.end(), g.begin() + static_cast<std::ptrdiff_t>(n_test), g.end());
  }
  // Interleave the classes again so that the order carries no information.
  std::shuffle(train_idx.begin(), train_idx.end(), rng);
  std::shuffle(test_idx.begin(), test_idx.end(), rng);
  return {Subset(data, train_idx), Subset(data, test_idx)};
}

void Standardize(Dataset& train, Dataset& test) {
  const int64_t n = train.num_samples();
  if (n == 0) return;
  const Eigen::VectorXd mean = train.features.rowwise().mean();
  train.features.colwise() -= mean;
  Eigen::VectorXd scale =
      (train.features.array().square().rowwise().sum() / static_cast<double>(n)).sqrt().matrix();
  for (Eigen::Index j = 0; j < scale.size(); ++j) {
    scale[j] = scale[j] > 1e-12 ? 1.0 / scale[j] : 1.0;
  }
  train.features = scale.asDiagonal() * train.features;
  if (test.num_samples() > 0) {
    test.features.colwise() -= mean;
    test.features = scale.asDiagonal() * test.features;
  }
}

}  // namespace commsim
