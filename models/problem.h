// BuildProblem: the one entry point the scenario layer uses to get an Objective.
//
// Steps, each seeded from `seed` through DeriveSeed so that the same spec and seed give the same
// problem: build the model factory; if it needs data, load the data set (cache or file), draw the
// optional max_samples subset, split train/test (stratified), standardise with training-set
// statistics when asked, partition the training set over `workers`, then build the objective.
// Every bad input (unknown file, bad line, model/data mismatch, a worker left without samples)
// is a UserError naming the file, field or component.
#ifndef COMMSIM_MODELS_PROBLEM_H_
#define COMMSIM_MODELS_PROBLEM_H_

#include <cstdint>
#include <memory>

#include "models/objective.h"
#include "models/problem_data.h"
#include "sim/params.h"

namespace commsim {

struct ProblemSpec {
  ComponentSpec model;      // kind "model"
  ComponentSpec data;       // kind "dataset" (ignored by models that need no data)
  ComponentSpec partition;  // kind "partition"
};

std::shared_ptr<const Objective> BuildProblem(const ProblemSpec& spec, int workers, uint64_t seed);

// The data half of BuildProblem (load, subset, split, standardise, partition).
std::shared_ptr<const ProblemData> BuildProblemData(const ComponentSpec& data,
                                                    const ComponentSpec& partition, int workers,
                                                    uint64_t seed);

// linear_regression on synthetic_regression (1200 x 500), iid.
ProblemSpec DefaultProblemSpec();

}  // namespace commsim

#endif  // COMMSIM_MODELS_PROBLEM_H_
