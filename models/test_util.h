// Helpers shared by the models/ tests (header only, not part of the library's API).
#ifndef COMMSIM_MODELS_TEST_UTIL_H_
#define COMMSIM_MODELS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "base/params.h"
#include "base/rng.h"
#include "models/objective.h"
#include "models/partition.h"
#include "models/problem_data.h"

namespace commsim::testing {

// A random Gaussian data set: d features, n samples; classes = 0 for regression.
inline Dataset RandomDataset(int64_t d, int64_t n, int classes, uint64_t seed) {
  Rng rng(seed);
  Dataset data;
  data.name = "random";
  data.num_classes = classes;
  data.features.resize(d, n);
  for (Eigen::Index i = 0; i < data.features.size(); ++i) data.features.data()[i] = rng.Normal();
  data.targets.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    data.targets[i] = classes > 0 ? static_cast<double>(i % classes) : rng.Normal();
  }
  return data;
}

// The data split iid over `workers`, with `test` as the test set.
inline std::shared_ptr<const ProblemData> Partitioned(const Dataset& train, int workers,
                                                      Dataset test = {}, uint64_t seed = 1) {
  Rng rng(seed);
  const Shards shards = IidPartitioner(IidPartitionConfig{}).Split(train, workers, rng);
  return std::make_shared<const ProblemData>(MakeProblemData(train, std::move(test), shards));
}

// Gradient of F (without R) at x: the shard gradients weighted by shard size.
inline double FullGradient(const Objective& f, const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
  int64_t total = 0;
  for (int w = 0; w < f.num_workers(); ++w) total += f.shard_size(w);
  grad.setZero(f.dim());
  Eigen::VectorXd g(f.dim());
  Rng unused(0);
  double loss = 0.0;
  for (int w = 0; w < f.num_workers(); ++w) {
    const double weight = static_cast<double>(f.shard_size(w)) / static_cast<double>(total);
    loss += weight * f.Gradient(w, x, 0, unused, g);
    grad += weight * g;
  }
  return loss;
}

// Sets one field of a config by its key, through Describe() (as the JSON reader would).
class SetField final : public ParamVisitor {
 public:
  SetField(std::string_view key, double number, std::string text = "")
      : key_(key), number_(number), text_(std::move(text)) {}
  static void Apply(Config& config, std::string_view key, double number) {
    SetField s(key, number);
    config.Describe(s);
    EXPECT_TRUE(s.found_) << key;
  }
  static void ApplyText(Config& config, std::string_view key, std::string text) {
    SetField s(key, 0, std::move(text));
    config.Describe(s);
    EXPECT_TRUE(s.found_) << key;
  }
  void Int(std::string_view key, int64_t& value, Range, std::string_view, Unit) override {
    if (key == key_) value = static_cast<int64_t>(number_), found_ = true;
  }
  void Real(std::string_view key, double& value, Range, std::string_view, Unit) override {
    if (key == key_) value = number_, found_ = true;
  }
  void Bool(std::string_view key, bool& value, std::string_view) override {
    if (key == key_) value = number_ != 0.0, found_ = true;
  }
  void Text(std::string_view key, std::string& value, std::span<const std::string_view>,
            std::string_view) override {
    if (key == key_) value = text_, found_ = true;
  }
  void RealList(std::string_view, std::vector<double>&, Range, std::string_view, Unit) override {}
  void Component(std::string_view, ComponentSpec&, std::string_view) override {}

 private:
  std::string key_;
  double number_;
  std::string text_;
  bool found_ = false;
};

}  // namespace commsim::testing

#endif  // COMMSIM_MODELS_TEST_UTIL_H_
