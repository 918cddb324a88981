#include "models/data_objective.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "base/check.h"
#include "base/error.h"
#include "models/eigen_blocking.h"

namespace commsim {
namespace {

// `count` distinct indices in [0, n), sorted (Floyd's algorithm; count is small next to n).
std::vector<int64_t> SampleWithoutReplacement(int64_t n, int64_t count, Rng& rng) {
  std::vector<int64_t> chosen;
  chosen.reserve(static_cast<size_t>(count));
  for (int64_t j = n - count; j < n; ++j) {
    const auto t = static_cast<int64_t>(rng.UniformInt(static_cast<uint64_t>(j + 1)));
    if (std::find(chosen.begin(), chosen.end(), t) == chosen.end()) {
      chosen.push_back(t);
    } else {
      chosen.push_back(j);
    }
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace

DataObjective::DataObjective(std::shared_ptr<const ProblemData> data, double l2, double l1)
    : data_(std::move(data)), l2_(l2), l1_(l1) {
  COMMSIM_CHECK(data_ != nullptr && data_->workers() >= 1, "objective without data");
  FixEigenBlocking();
}

void DataObjective::InitialPoint(Rng& /*rng*/, Eigen::Ref<Eigen::VectorXd> x0) const {
  x0.setZero();
}

void DataObjective::RequireClasses(std::string_view model, int min_classes, int max_classes) const {
  const Dataset& train = data_->train;
  if (!train.is_classification()) {
    throw UserError(
        fmt::format("model {}: needs a classification data set, '{}' is a regression "
                    "set",
                    model, train.name));
  }
  if (train.num_classes < min_classes || train.num_classes > max_classes) {
    throw UserError(fmt::format("model {}: needs {} classes, data set '{}' has {}", model,
                                min_classes == max_classes
                                    ? fmt::format("{}", min_classes)
                                    : fmt::format("at least {}", min_classes),
                                train.name, train.num_classes));
  }
}

double DataObjective::MeanLoss(const Dataset& set, int64_t begin, int64_t count,
                               const Eigen::Ref<const Eigen::VectorXd>& x,
                               Eigen::VectorXd* grad) const {
  return ChunkedLoss(set.features.middleCols(begin, count), set.targets.segment(begin, count), x,
                     grad);
}

double DataObjective::ChunkedLoss(const Eigen::Ref<const Eigen::MatrixXd>& features,
                                  const Eigen::Ref<const Eigen::VectorXd>& targets,
                                  const Eigen::Ref<const Eigen::VectorXd>& x,
                                  Eigen::VectorXd* grad) const {
  const int64_t count = features.cols();
  COMMSIM_CHECK(count > 0, "empty sample range");
  const int64_t chunk = eval_chunk();
  if (count <= chunk) return BatchLoss(x, features, targets, grad);
  if (grad != nullptr) grad->setZero(x.size());
  Eigen::VectorXd chunk_grad;
  double total = 0.0;
  for (int64_t start = 0; start < count; start += chunk) {
    const int64_t m = std::min(chunk, count - start);
    const double weight = static_cast<double>(m) / static_cast<double>(count);
    total += weight * BatchLoss(x, features.middleCols(start, m), targets.segment(start, m),
                                grad != nullptr ? &chunk_grad : nullptr);
    if (grad != nullptr) *grad += weight * chunk_grad;
  }
  return total;
}

double DataObjective::Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                               int64_t batch, Rng& rng, Eigen::Ref<Eigen::VectorXd> grad) const {
  COMMSIM_CHECK(worker >= 0 && worker < num_workers(), "worker {}", worker);
  COMMSIM_CHECK(grad.size() == dim() && x.size() == dim(), "dimension mismatch");
  const int64_t n = data_->shard_size(worker);
  const int64_t begin = data_->shard_begin(worker);
  Eigen::VectorXd g;
  double loss = 0.0;
  if (batch <= 0 || batch >= n) {
    loss = MeanLoss(data_->train, begin, n, x, &g);
  } else {
    const std::vector<int64_t> picks = SampleWithoutReplacement(n, batch, rng);
    Eigen::MatrixXd features(data_->train.num_features(), batch);
    Eigen::VectorXd targets(batch);
    for (int64_t j = 0; j < batch; ++j) {
      features.col(j) = data_->train.features.col(begin + picks[static_cast<size_t>(j)]);
      targets[j] = data_->train.targets[begin + picks[static_cast<size_t>(j)]];
    }
    loss = ChunkedLoss(features, targets, x, &g);
  }
  grad = g;
  if (l2_ > 0.0) {
    grad += l2_ * x;
    loss += 0.5 * l2_ * x.squaredNorm();
  }
  return loss;
}

double DataObjective::Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  double loss = MeanLoss(data_->train, 0, data_->train.num_samples(), x, nullptr);
  if (l2_ > 0.0) loss += 0.5 * l2_ * x.squaredNorm();
  if (l1_ > 0.0) loss += l1_ * x.lpNorm<1>();
  return loss;
}

std::optional<double> DataObjective::TestAccuracy(
    const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const Dataset& test = data_->test;
  if (!test.is_classification() || test.num_samples() == 0) return std::nullopt;
  int64_t correct = 0;
  const int64_t chunk = eval_chunk();
  for (int64_t start = 0; start < test.num_samples(); start += chunk) {
    const int64_t m = std::min(chunk, test.num_samples() - start);
    const Eigen::VectorXi predicted = Predict(x, test.features.middleCols(start, m));
    for (int64_t j = 0; j < m; ++j) correct += predicted[j] == test.label(start + j) ? 1 : 0;
  }
  return static_cast<double>(correct) / static_cast<double>(test.num_samples());
}

}  // namespace commsim
