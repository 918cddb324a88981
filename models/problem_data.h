// ProblemData: a training set already partitioned over workers, plus a test set.
//
// The training samples are stored in shard order: worker w owns columns
// [offsets[w], offsets[w + 1]) of train.features, so a full-shard pass is a column block and
// needs no copy. Built once by BuildProblem and then shared read-only (shared_ptr<const>).
#ifndef COMMSIM_MODELS_PROBLEM_DATA_H_
#define COMMSIM_MODELS_PROBLEM_DATA_H_

#include <cstdint>
#include <vector>

#include "models/dataset.h"
#include "models/partition.h"

namespace commsim {

struct ProblemData {
  Dataset train;
  Dataset test;
  std::vector<int64_t> offsets;  // workers + 1 entries, offsets[0] = 0

  int workers() const { return static_cast<int>(offsets.size()) - 1; }
  int64_t shard_begin(int w) const { return offsets[static_cast<size_t>(w)]; }
  int64_t shard_size(int w) const {
    return offsets[static_cast<size_t>(w) + 1] - offsets[static_cast<size_t>(w)];
  }
};

// Reorders `train` into shard order. REQUIRES: shards hold every index of train exactly once.
ProblemData MakeProblemData(const Dataset& train, Dataset test, const Shards& shards);

}  // namespace commsim

#endif  // COMMSIM_MODELS_PROBLEM_DATA_H_
