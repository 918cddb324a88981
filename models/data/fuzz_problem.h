// Shared by the data-file fuzz drivers (libsvm_fuzz.cc, csv_fuzz.cc, cache_fuzz.cc): builds a
// problem on the fuzzed data the way a scenario does (BuildProblem: load, subset, split,
// standardise, partition, model) and evaluates it once, so labels and shapes that survive the
// loader are also exercised where they are used (class indices, image shapes, shard sizes).
//
// The model and partition come from their registries (a new one is fuzzed without an edit) with
// fuzzed configs; sizes are capped (kIntCap) so the work per input stays bounded.
#ifndef COMMSIM_MODELS_DATA_FUZZ_PROBLEM_H_
#define COMMSIM_MODELS_DATA_FUZZ_PROBLEM_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "base/fuzz_support.h"
#include "models/data_source.h"
#include "models/problem.h"
#include "models/registry.h"

namespace commsim::fuzz {

inline constexpr int64_t kIntCap = 4096;  // any integer config field (classes, features, ...)
// The data sets' memory budget (limits.max_memory) under fuzzing: a file that declares a huge
// feature index must be refused by the loader's budget check, well inside -rss_limit_mb.
inline constexpr int64_t kFuzzMaxMemoryBytes = int64_t{64} << 20;

// A registered component picked by the input, its config filled from the input. Returns false
// when the config fails its own validation.
template <class Base>
bool PickComponent(FuzzedDataProvider& in, const Registry<Base>& registry, std::string_view kind,
                   ComponentSpec& spec, bool (*usable)(const ComponentSpec&) = nullptr) {
  std::vector<std::string> names;
  for (const auto& e : registry.entries()) {
    ComponentSpec candidate = registry.DefaultSpec(kind, e.name);
    if (usable == nullptr || usable(candidate)) names.push_back(e.name);
  }
  spec = registry.DefaultSpec(kind, names[in.ConsumeIntegralInRange<size_t>(0, names.size() - 1)]);
  return FillConfig(in, *spec.config, kIntCap, /*real_cap=*/64.0, /*list_cap=*/2);
}

inline bool NeedsData(const ComponentSpec& model) {
  return ModelRegistry().Make(model)->needs_data();
}

struct FuzzProblem {
  ProblemSpec spec;
  int workers = 1;
  uint64_t seed = 1;
  int64_t batch = 0;
};

// Picks model, partition, workers, seed and batch from the input; false when a picked config
// fails its own validation. Call before taking the data file's bytes (ConsumeRemainingBytes).
inline bool PickProblem(FuzzedDataProvider& in, const ComponentSpec& data, FuzzProblem& p) {
  p.spec.data = data;
  if (!PickComponent(in, ModelRegistry(), kModelKind, p.spec.model, NeedsData)) return false;
  if (!PickComponent(in, PartitionRegistry(), kPartitionKind, p.spec.partition)) return false;
  p.workers = in.ConsumeIntegralInRange<int>(1, 4);
  p.seed = in.ConsumeIntegral<uint64_t>();
  p.batch = in.ConsumeIntegralInRange<int64_t>(0, 3);
  return true;
}

// Small enough to build and evaluate within the fuzzer's time limit (the closed-form optimum of
// linear_regression is O(features^3), softmax gradients O(samples x features x classes)). Larger
// data sets are legal; bounding them is the loaders' limits' job, not the driver's.
inline bool SmallEnough(const Dataset& d) {
  return d.num_features() <= 256 && d.num_samples() <= 4096 && d.num_classes <= 64;
}

// Loads the data set once and, when it is small enough, builds the problem and evaluates loss,
// test accuracy and every worker's gradient at the initial point. UserError is the expected
// outcome of bad data.
inline void BuildAndEvaluate(const FuzzProblem& p) {
  FuzzGuard([&] {
    const Dataset d = DatasetRegistry().Make(p.spec.data)->Load(p.seed, p.spec.max_memory_bytes);
    if (!SmallEnough(d)) return;
    const std::shared_ptr<const Objective> objective = BuildProblem(p.spec, p.workers, p.seed);
    Rng rng(p.seed);
    Eigen::VectorXd x(objective->dim()), grad(objective->dim());
    objective->InitialPoint(rng, x);
    objective->Loss(x);
    objective->TestAccuracy(x);
    for (int w = 0; w < objective->num_workers(); ++w) {
      objective->Gradient(w, x, p.batch, rng, grad);
    }
  });
}

// The whole of a text data-file driver (csv_fuzz.cc, libsvm_fuzz.cc): the input's tail fills the
// `dataset` component's config (type Config) and picks the problem; the rest, from the front, is
// written as the scratch file `file_name` the config reads, then the problem is built and
// evaluated within kFuzzMaxMemoryBytes. Inputs over 8 KiB are skipped (bounds the work per input).
template <class Config>
int FuzzDataFile(const uint8_t* data, size_t size, std::string_view dataset,
                 const std::string& file_name) {
  if (size > 8192) return 0;
  FuzzedDataProvider in(data, size);
  ComponentSpec spec = DatasetRegistry().DefaultSpec(kDatasetKind, dataset);
  auto& config = static_cast<Config&>(*spec.config);
  config.path = (ScratchDir() / file_name).string();
  FuzzProblem problem;
  problem.spec.max_memory_bytes = kFuzzMaxMemoryBytes;
  if (!FillConfig(in, config, kIntCap) || !PickProblem(in, spec, problem)) return 0;
  const std::vector<uint8_t> file = in.ConsumeRemainingBytes<uint8_t>();
  WriteScratchFile(file_name, file.data(), file.size());
  BuildAndEvaluate(problem);
  return 0;
}

}  // namespace commsim::fuzz

#endif  // COMMSIM_MODELS_DATA_FUZZ_PROBLEM_H_
