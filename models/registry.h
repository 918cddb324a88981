// The model-side component registries (one line per component in registry.cc):
//   "dataset"   DatasetRegistry()    synthetic_regression, synthetic_classification, mnist,
//                                    breast_cancer, digits, wine, iris, diabetes, libsvm, csv
//   "partition" PartitionRegistry()  iid, by_label, dirichlet
//   "model"     ModelRegistry()      linear_regression, logistic_regression, softmax_regression,
//                                    mlp, lenet5, synthetic_quadratic
// Each registry is built on first use and then only read.
#ifndef COMMSIM_MODELS_REGISTRY_H_
#define COMMSIM_MODELS_REGISTRY_H_

#include "base/registry.h"
#include "models/data_source.h"
#include "models/model_factory.h"
#include "models/partition.h"

namespace commsim {

inline constexpr std::string_view kDatasetKind = "dataset";
inline constexpr std::string_view kPartitionKind = "partition";
inline constexpr std::string_view kModelKind = "model";

const Registry<DataSource>& DatasetRegistry();
const Registry<Partitioner>& PartitionRegistry();
const Registry<ModelFactory>& ModelRegistry();

}  // namespace commsim

#endif  // COMMSIM_MODELS_REGISTRY_H_
