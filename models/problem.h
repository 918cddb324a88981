// BuildProblem: the one entry point the scenario layer uses to get an Objective.
//
// Steps, each seeded from `seed` through DeriveSeed so that the same spec and seed give the same
// problem: build the model factory; if it needs data, load the data set (cache or file), draw the
// optional max_samples subset, split train/test (stratified), standardise with training-set
// statistics when asked, partition the training set over `workers`, then build the objective.
// Every bad input (unknown file, bad line, model/data mismatch, a worker left without samples)
// is a ProblemError naming the part of the spec, and in its text the file, field or component.
#ifndef COMMSIM_MODELS_PROBLEM_H_
#define COMMSIM_MODELS_PROBLEM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "base/error.h"
#include "base/limits.h"
#include "base/params.h"
#include "models/objective.h"
#include "models/problem_data.h"

namespace commsim {

// A UserError raised by one part of a ProblemSpec, so the caller can point at it: `part` is the
// component, `key` the field of its config the problem is about ("path" for a data file), or ""
// for the component as a whole.
class ProblemError : public UserError {
 public:
  enum class Part { kModel, kData, kPartition };
  ProblemError(Part part, std::string key, const std::string& message)
      : UserError(message), part_(part), key_(std::move(key)) {}
  Part part() const { return part_; }
  const std::string& key() const { return key_; }

 private:
  Part part_;
  std::string key_;
};

struct ProblemSpec {
  ComponentSpec model;      // kind "model"
  ComponentSpec data;       // kind "dataset" (ignored by models that need no data)
  ComponentSpec partition;  // kind "partition"
  int64_t max_memory_bytes = SimLimits::kDefaultMaxMemoryBytes;  // limits.max_memory
};

std::shared_ptr<const Objective> BuildProblem(const ProblemSpec& spec, int workers, uint64_t seed);

// The data half of BuildProblem (load within max_memory_bytes, subset, split, standardise,
// partition).
std::shared_ptr<const ProblemData> BuildProblemData(
    const ComponentSpec& data, const ComponentSpec& partition, int workers, uint64_t seed,
    int64_t max_memory_bytes = SimLimits::kDefaultMaxMemoryBytes);

// linear_regression on synthetic_regression (1200 x 500), iid.
ProblemSpec DefaultProblemSpec();

}  // namespace commsim

#endif  // COMMSIM_MODELS_PROBLEM_H_
