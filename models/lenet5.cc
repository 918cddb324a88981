#include "models/lenet5.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "models/profiles.h"
#include "sim/check.h"
#include "sim/error.h"

namespace commsim {
namespace {

Eigen::Map<const Eigen::MatrixXd> Weights(const Eigen::Ref<const Eigen::VectorXd>& x,
                                          int64_t offset, int64_t rows, int64_t cols) {
  return Eigen::Map<const Eigen::MatrixXd>(x.data() + offset, rows, cols);
}

void Relu(Eigen::MatrixXd& m) { m = m.cwiseMax(0.0); }

}  // namespace

LeNet5::LeNet5(const LeNet5Config& config, std::shared_ptr<const ProblemData> data)
    : DataObjective(std::move(data), config.l2, 0.0) {
  RequireClasses("lenet5", 2, 1 << 20);
  const Dataset& train = this->data().train;
  const std::vector<int>& shape = train.image_shape;
  if (shape.size() != 3) {
    throw UserError(
        fmt::format("model lenet5: needs image data (e.g. mnist), data set '{}' has "
                    "no image shape",
                    train.name));
  }
  const int c = shape[0], h = shape[1], w = shape[2];
  if (h % 2 != 0 || w % 2 != 0 || h / 2 - 4 < 2 || w / 2 - 4 < 2 || (h / 2 - 4) % 2 != 0 ||
      (w / 2 - 4) % 2 != 0) {
    throw UserError(
        fmt::format("model lenet5: image size {}x{} of '{}' does not fit the "
                    "architecture, expected e.g. 28x28 (H/2 - 4 even and >= 2)",
                    h, w, train.name));
  }
  conv1_ = ConvShape{c, h, w, 5, 2};
  conv2_ = ConvShape{6, h / 2, w / 2, 5, 0};
  const int64_t flat = 16LL * (conv2_.out_height() / 2) * (conv2_.out_width() / 2);
  const int64_t shapes[kLayers][2] = {
      {6, conv1_.patch()}, {16, conv2_.patch()}, {120, flat}, {84, 120}, {train.num_classes, 84}};
  for (int l = 0; l < kLayers; ++l) {
    layers_[l] = Layer{shapes[l][0], shapes[l][1], dim_};
    dim_ += shapes[l][0] * shapes[l][1] + shapes[l][0];
  }
  profile_ = LeNet5Profile(c, h, w, train.num_classes);
  COMMSIM_CHECK(profile_.TotalParams() == dim_, "profile {} vs dim {}", profile_.TotalParams(),
                dim_);
}

double LeNet5::flops_per_sample() const {
  return profile_.ForwardFlopsPerSample() + profile_.BackwardFlopsPerSample();
}

void LeNet5::InitialPoint(Rng& rng, Eigen::Ref<Eigen::VectorXd> x0) const {
  x0.setZero();
  for (const Layer& layer : layers_) {
    const double stddev = std::sqrt(2.0 / static_cast<double>(layer.cols));
    for (int64_t i = 0; i < layer.rows * layer.cols; ++i)
      x0[layer.offset + i] = stddev * rng.Normal();
  }
}

double LeNet5::BatchLoss(const Eigen::Ref<const Eigen::VectorXd>& x,
                         const Eigen::Ref<const Eigen::MatrixXd>& features,
                         const Eigen::Ref<const Eigen::VectorXd>& targets,
                         Eigen::VectorXd* grad) const {
  return Run(x, features, &targets, grad, nullptr);
}

Eigen::VectorXi LeNet5::Predict(const Eigen::Ref<const Eigen::VectorXd>& x,
                                const Eigen::Ref<const Eigen::MatrixXd>& features) const {
  Eigen::VectorXi predicted;
  Run(x, features, nullptr, nullptr, &predicted);
  return predicted;
}

double LeNet5::Run(const Eigen::Ref<const Eigen::VectorXd>& x,
                   const Eigen::Ref<const Eigen::MatrixXd>& features,
                   const Eigen::Ref<const Eigen::VectorXd>* targets, Eigen::VectorXd* grad,
                   Eigen::VectorXi* predicted) const {
  const auto batch = static_cast<int>(features.cols());
  const Layer& l1 = layers_[0];
  const Layer& l2 = layers_[1];
  // The input must be contiguous for Im2Col; a column block of the data matrix is.
  Eigen::MatrixXd input_copy;
  const double* input = features.data();
  if (features.outerStride() != features.rows()) {
    input_copy = features;
    input = input_copy.data();
  }
  // conv1 -> ReLU -> pool
  Eigen::MatrixXd col1, z1, p1, col2, z2, p2;
  std::vector<int32_t> arg1, arg2;
  Im2Col(input, conv1_, batch, col1);
  z1.noalias() = Weights(x, l1.offset, l1.rows, l1.cols) * col1;
  z1.colwise() +=
      Eigen::Map<const Eigen::VectorXd>(x.data() + l1.offset + l1.rows * l1.cols, l1.rows);
  Relu(z1);
  MaxPool2x2(z1, conv1_.out_height(), conv1_.out_width(), batch, p1, arg1);
  // conv2 -> ReLU -> pool
  Im2Col(p1.data(), conv2_, batch, col2);
  z2.noalias() = Weights(x, l2.offset, l2.rows, l2.cols) * col2;
  z2.colwise() +=
      Eigen::Map<const Eigen::VectorXd>(x.data() + l2.offset + l2.rows * l2.cols, l2.rows);
  Relu(z2);
  MaxPool2x2(z2, conv2_.out_height(), conv2_.out_width(), batch, p2, arg2);
  // Fully connected layers on the flattened (16*P x B) view of p2.
  std::vector<Eigen::MatrixXd> a(kLayers + 1);  // a[l] = input of layer l (l >= 2)
  a[2] = Eigen::Map<const Eigen::MatrixXd>(p2.data(), layers_[2].cols, batch);
  for (int l = 2; l < kLayers; ++l) {
    const Layer& layer = layers_[l];
    a[l + 1].resize(layer.rows, batch);
    a[l + 1].noalias() = Weights(x, layer.offset, layer.rows, layer.cols) * a[l];
    a[l + 1].colwise() += Eigen::Map<const Eigen::VectorXd>(
        x.data() + layer.offset + layer.rows * layer.cols, layer.rows);
    if (l + 1 < kLayers) Relu(a[l + 1]);
  }
  if (predicted != nullptr) *predicted = ArgmaxColumns(a[kLayers]);
  if (targets == nullptr) return 0.0;
  Eigen::MatrixXd delta;
  const double loss = SoftmaxCrossEntropy(a[kLayers], *targets, grad != nullptr ? &delta : nullptr);
  if (grad == nullptr) return loss;

  grad->resize(dim_);
  auto grad_w = [&](const Layer& layer) {
    return Eigen::Map<Eigen::MatrixXd>(grad->data() + layer.offset, layer.rows, layer.cols);
  };
  auto grad_b = [&](const Layer& layer) {
    return Eigen::Map<Eigen::VectorXd>(grad->data() + layer.offset + layer.rows * layer.cols,
                                       layer.rows);
  };
  for (int l = kLayers - 1; l >= 2; --l) {
    const Layer& layer = layers_[l];
    grad_w(layer).noalias() = delta * a[l].transpose();
    grad_b(layer) = delta.rowwise().sum();
    Eigen::MatrixXd below(layer.cols, batch);
    below.noalias() = Weights(x, layer.offset, layer.rows, layer.cols).transpose() * delta;
    delta = l > 2 ? (a[l].array() > 0.0).select(below, 0.0).matrix() : below;
  }
  // delta is now d loss / d p2 as (16*P x B), i.e. the (16 x B*P) tensor layout.
  Eigen::MatrixXd dz2;
  MaxPool2x2Backward(Eigen::Map<const Eigen::MatrixXd>(delta.data(), 16, p2.cols()), arg2,
                     z2.cols(), dz2);
  dz2 = (z2.array() > 0.0).select(dz2, 0.0);
  grad_w(l2).noalias() = dz2 * col2.transpose();
  grad_b(l2) = dz2.rowwise().sum();
  Eigen::MatrixXd dcol2(l2.cols, dz2.cols());
  dcol2.noalias() = Weights(x, l2.offset, l2.rows, l2.cols).transpose() * dz2;
  Eigen::MatrixXd dp1 = Eigen::MatrixXd::Zero(p1.rows(), p1.cols());
  Col2ImAdd(dcol2, conv2_, batch, dp1.data());
  Eigen::MatrixXd dz1;
  MaxPool2x2Backward(dp1, arg1, z1.cols(), dz1);
  dz1 = (z1.array() > 0.0).select(dz1, 0.0);
  grad_w(l1).noalias() = dz1 * col1.transpose();
  grad_b(l1) = dz1.rowwise().sum();
  return loss;
}

}  // namespace commsim
