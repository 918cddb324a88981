// ModelFactory: builds an Objective from a model config (the "model" component kind).
//
// Contract: Build() is called once per problem with the partitioned data (null when
// needs_data() is false) and returns an immutable, thread-safe Objective. Mismatches between
// model and data (a binary model on a 10-class set, LeNet-5 on non-image data) are UserErrors
// naming the model and the data set.
#ifndef COMMSIM_MODELS_MODEL_FACTORY_H_
#define COMMSIM_MODELS_MODEL_FACTORY_H_

#include <cstdint>
#include <memory>

#include "models/objective.h"
#include "models/problem_data.h"

namespace commsim {

class ModelFactory {
 public:
  virtual ~ModelFactory() = default;
  virtual bool needs_data() const { return true; }
  virtual std::unique_ptr<Objective> Build(std::shared_ptr<const ProblemData> data, int workers,
                                           uint64_t seed) const = 0;
};

// The factory of a data-driven model: Model(const Cfg&, shared_ptr<const ProblemData>).
template <class Model, class Cfg>
class DataModelFactory final : public ModelFactory {
 public:
  explicit DataModelFactory(const Cfg& config) : config_(config) {}
  std::unique_ptr<Objective> Build(std::shared_ptr<const ProblemData> data, int /*workers*/,
                                   uint64_t /*seed*/) const override {
    return std::make_unique<Model>(config_, std::move(data));
  }

 private:
  Cfg config_;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_MODEL_FACTORY_H_
