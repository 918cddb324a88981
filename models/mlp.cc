#include "models/mlp.h"

#include <fmt/format.h>

#include <cmath>

#include "models/nn_ops.h"
#include "models/profiles.h"

namespace commsim {

void MlpConfig::Describe(ParamVisitor& v) {
  v.RealList("hidden", hidden, Range::Closed(1, kMaxFeatures),
             "widths of the hidden layers, e.g. [128, 64]");
  v.Real("l2", l2, Range::NonNegative(), "weight decay: adds (l2/2)||x||^2");
}

void MlpConfig::Validate(ParamProblems& problems) const {
  for (size_t i = 0; i < hidden.size(); ++i) {
    if (hidden[i] != std::floor(hidden[i])) {
      problems.Add("hidden", fmt::format("entry {} must be a whole number, got {}", i, hidden[i]));
    }
  }
}

Mlp::Mlp(const MlpConfig& config, std::shared_ptr<const ProblemData> data)
    : LayeredObjective(std::move(data), config.l2, 0.0) {
  RequireClasses("mlp", 2, 1 << 20);
  widths_.push_back(this->data().train.num_features());
  for (double h : config.hidden) widths_.push_back(static_cast<int64_t>(h));
  widths_.push_back(this->data().train.num_classes);
  std::vector<std::pair<int64_t, int64_t>> shapes;
  for (size_t l = 0; l + 1 < widths_.size(); ++l) shapes.emplace_back(widths_[l + 1], widths_[l]);
  SetLayers(shapes, MlpProfile(widths_));
}

void Mlp::Forward(const Eigen::Ref<const Eigen::VectorXd>& x,
                  const Eigen::Ref<const Eigen::MatrixXd>& features,
                  std::vector<Eigen::MatrixXd>& activations) const {
  const size_t layers = widths_.size() - 1;
  activations.resize(layers + 1);
  activations[0] = features;
  for (size_t l = 0; l < layers; ++l) {
    const Eigen::Map<const Eigen::MatrixXd> w(x.data() + weight_layer(l).offset, widths_[l + 1],
                                              widths_[l]);
    const Eigen::Map<const Eigen::VectorXd> b(x.data() + weight_layer(l).offset + w.size(),
                                              widths_[l + 1]);
    Eigen::MatrixXd& z = activations[l + 1];
    z.resize(widths_[l + 1], features.cols());
    z.noalias() = w * activations[l];
    z.colwise() += b;
    if (l + 1 < layers) z = z.cwiseMax(0.0);
  }
}

double Mlp::BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                      Eigen::VectorXd* grad) const {
  std::vector<Eigen::MatrixXd> act;
  Forward(x, features, act);
  const size_t layers = widths_.size() - 1;
  Eigen::MatrixXd delta;
  const double loss = SoftmaxCrossEntropy(act[layers], targets, grad != nullptr ? &delta : nullptr);
  if (grad == nullptr) return loss;
  grad->resize(dim());
  for (size_t l = layers; l-- > 0;) {
    const Eigen::Map<const Eigen::MatrixXd> w(x.data() + weight_layer(l).offset, widths_[l + 1],
                                              widths_[l]);
    Eigen::Map<Eigen::MatrixXd> dw(grad->data() + weight_layer(l).offset, widths_[l + 1],
                                   widths_[l]);
    Eigen::Map<Eigen::VectorXd> db(grad->data() + weight_layer(l).offset + w.size(),
                                   widths_[l + 1]);
    dw.noalias() = delta * act[l].transpose();
    db = delta.rowwise().sum();
    if (l > 0) {
      Eigen::MatrixXd below(widths_[l], delta.cols());
      below.noalias() = w.transpose() * delta;
      // ReLU: the post-activation is positive exactly where the pre-activation was.
      delta = (act[l].array() > 0.0).select(below, 0.0);
    }
  }
  return loss;
}

Eigen::VectorXi Mlp::Predict(const ConstVec& x, const ConstMat& features) const {
  std::vector<Eigen::MatrixXd> act;
  Forward(x, features, act);
  return ArgmaxColumns(act.back());
}

}  // namespace commsim
