// Partitioner: splits a training set over workers.
//
// Contract for every implementation:
//   - Split() returns one index list per worker; together they hold every sample index of the
//     training set exactly once (shards may differ in size).
//   - Deterministic given the Rng state: same seed -> same split.
//   - A data set the partitioner cannot split (e.g. labels needed but the set is a regression
//     set, or more classes asked per worker than exist) is a UserError naming the partitioner.
//
//   iid        shuffle, then contiguous near-equal chunks (sizes differ by at most one)
//   by_label   every worker holds exactly classes_per_worker classes (the class list is shuffled
//              and dealt round-robin); each class's samples are split evenly among its holders
//   dirichlet  per class, worker shares drawn from Dirichlet(alpha) (small alpha = skewed);
//              a worker left empty takes one sample from the largest shard
#ifndef COMMSIM_MODELS_PARTITION_H_
#define COMMSIM_MODELS_PARTITION_H_

#include <cstdint>
#include <vector>

#include "base/params.h"
#include "base/rng.h"
#include "models/dataset.h"

namespace commsim {

using Shards = std::vector<std::vector<int64_t>>;

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  // REQUIRES: workers >= 1.
  virtual Shards Split(const Dataset& train, int workers, Rng& rng) const = 0;
};

struct IidPartitionConfig final : ConfigBase<IidPartitionConfig> {
  void Describe(ParamVisitor&) override {}
};

struct ByLabelPartitionConfig final : ConfigBase<ByLabelPartitionConfig> {
  int64_t classes_per_worker = 2;
  void Describe(ParamVisitor& v) override {
    v.Int("classes_per_worker", classes_per_worker, Range::AtLeast(1),
          "number of distinct classes each worker holds");
  }
};

struct DirichletPartitionConfig final : ConfigBase<DirichletPartitionConfig> {
  double alpha = 0.5;
  void Describe(ParamVisitor& v) override {
    v.Real("alpha", alpha, Range::Positive(),
           "Dirichlet concentration per class (small = each class on few workers)");
  }
};

// The partitioner of a kind whose split is a function of its typed config: each kind declares
// `Shards SplitX(const XConfig& config, const Dataset& train, int workers, Rng& rng);` and
// `using XPartitioner = ConfigPartitioner<XConfig, SplitX>;`.
template <class Config, Shards (*kSplit)(const Config&, const Dataset&, int, Rng&)>
class ConfigPartitioner final : public Partitioner {
 public:
  explicit ConfigPartitioner(const Config& config) : config_(config) {}
  Shards Split(const Dataset& train, int workers, Rng& rng) const override {
    return kSplit(config_, train, workers, rng);
  }

 private:
  Config config_;
};

Shards SplitIid(const IidPartitionConfig& config, const Dataset& train, int workers, Rng& rng);
using IidPartitioner = ConfigPartitioner<IidPartitionConfig, SplitIid>;

Shards SplitByLabel(const ByLabelPartitionConfig& config, const Dataset& train, int workers,
                    Rng& rng);
using ByLabelPartitioner = ConfigPartitioner<ByLabelPartitionConfig, SplitByLabel>;

Shards SplitDirichlet(const DirichletPartitionConfig& config, const Dataset& train, int workers,
                      Rng& rng);
using DirichletPartitioner = ConfigPartitioner<DirichletPartitionConfig, SplitDirichlet>;

// A Gamma(shape, 1) variate (Marsaglia-Tsang; shape < 1 via the x * U^(1/shape) boost).
double SampleGamma(double shape, Rng& rng);

}  // namespace commsim

#endif  // COMMSIM_MODELS_PARTITION_H_
