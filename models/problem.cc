#include "models/problem.h"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <numeric>

#include "base/check.h"
#include "base/error.h"
#include "models/registry.h"

namespace commsim {

std::shared_ptr<const ProblemData> BuildProblemData(const ComponentSpec& data_spec,
                                                    const ComponentSpec& partition_spec,
                                                    int workers, uint64_t seed,
                                                    int64_t max_memory_bytes) {
  COMMSIM_CHECK(workers >= 1, "workers {}", workers);
  const std::unique_ptr<DataSource> source = DatasetRegistry().Make(data_spec);
  const std::unique_ptr<Partitioner> partitioner = PartitionRegistry().Make(partition_spec);
  const DataOptions& options = source->options();
  Dataset all;
  try {
    all = source->Load(DeriveSeed(seed, 0, "dataset"), max_memory_bytes);
  } catch (const UserError& e) {
    throw ProblemError(ProblemError::Part::kData, std::string(source->file_key()), e.what());
  } catch (const std::bad_alloc&) {
    throw ProblemError(ProblemError::Part::kData, "",
                       fmt::format("not enough memory to load data set {}", data_spec.name));
  }
  if (options.max_samples > 0 && options.max_samples < all.num_samples()) {
    Rng rng(seed, 0, "max_samples");
    std::vector<int64_t> order(static_cast<size_t>(all.num_samples()));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    order.resize(static_cast<size_t>(options.max_samples));
    all = Subset(all, order);
  }
  Rng split_rng(seed, 0, "train_test_split");
  TrainTest sets = SplitTrainTest(all, options.test_fraction, split_rng);
  if (options.standardize) Standardize(sets.train, sets.test);
  if (sets.train.num_samples() < workers) {
    throw ProblemError(ProblemError::Part::kData, "",
                       fmt::format("dataset {}: {} training samples cannot be shared by {} workers",
                                   data_spec.name, sets.train.num_samples(), workers));
  }
  Rng partition_rng(seed, 0, "partition");
  Shards shards;
  try {
    shards = partitioner->Split(sets.train, workers, partition_rng);
  } catch (const ProblemError&) {
    throw;
  } catch (const UserError& e) {
    throw ProblemError(ProblemError::Part::kPartition, "", e.what());
  }
  for (size_t w = 0; w < shards.size(); ++w) {
    if (shards[w].empty()) {
      throw ProblemError(ProblemError::Part::kPartition, "",
                         fmt::format("partition {}: worker {} received no samples of '{}'",
                                     partition_spec.name, w, data_spec.name));
    }
  }
  return std::make_shared<const ProblemData>(
      MakeProblemData(sets.train, std::move(sets.test), shards));
}

std::shared_ptr<const Objective> BuildProblem(const ProblemSpec& spec, int workers, uint64_t seed) {
  const std::unique_ptr<ModelFactory> factory = ModelRegistry().Make(spec.model);
  std::shared_ptr<const ProblemData> data;
  if (factory->needs_data()) {
    data = BuildProblemData(spec.data, spec.partition, workers, seed, spec.max_memory_bytes);
  }
  std::shared_ptr<const Objective> objective;
  try {
    objective = factory->Build(std::move(data), workers, seed);
  } catch (const ProblemError&) {
    throw;
  } catch (const UserError& e) {
    throw ProblemError(ProblemError::Part::kModel, "", e.what());
  }
  if (objective->dim() > kMaxModelDim) {
    throw ProblemError(ProblemError::Part::kModel, "",
                       fmt::format("model {} has {} parameters, more than the {} a model may have "
                                   "(each copy takes 8 bytes per parameter)",
                                   spec.model.name, objective->dim(), kMaxModelDim));
  }
  return objective;
}

ProblemSpec DefaultProblemSpec() {
  return ProblemSpec{ModelRegistry().DefaultSpec(kModelKind, "linear_regression"),
                     DatasetRegistry().DefaultSpec(kDatasetKind, "synthetic_regression"),
                     PartitionRegistry().DefaultSpec(kPartitionKind, "iid")};
}

}  // namespace commsim
