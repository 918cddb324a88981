#include "models/lenet5.h"

#include <fmt/format.h>

#include <string_view>
#include <type_traits>
#include <vector>

#include "base/error.h"
#include "models/profiles.h"

namespace commsim {
namespace {

constexpr std::string_view kPrecisions[] = {"float32", "float64"};

template <class S>
using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using Vector = Eigen::Matrix<S, Eigen::Dynamic, 1>;

template <class S>
Eigen::Map<const Matrix<S>> Weights(const S* w, int64_t offset, int64_t rows, int64_t cols) {
  return Eigen::Map<const Matrix<S>>(w + offset, rows, cols);
}

template <class S>
Eigen::Map<const Vector<S>> Biases(const S* w, int64_t offset, int64_t rows, int64_t cols) {
  return Eigen::Map<const Vector<S>>(w + offset + rows * cols, rows);
}

template <class S>
void Relu(Matrix<S>& m) {
  m = m.cwiseMax(S(0));
}

}  // namespace

void LeNet5Config::Describe(ParamVisitor& v) {
  v.Real("l2", l2, Range::NonNegative(), "weight decay: adds (l2/2)||x||^2");
  v.Text("precision", precision, kPrecisions,
         "float32: forward and backward passes in single precision (as PyTorch); float64: double");
}

LeNet5::LeNet5(const LeNet5Config& config, std::shared_ptr<const ProblemData> data)
    : LayeredObjective(std::move(data), config.l2, 0.0), single_(config.precision == "float32") {
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
  const int64_t classes = train.num_classes;
  SetLayers({{6, conv1_.patch()}, {16, conv2_.patch()}, {120, flat}, {84, 120}, {classes, 84}},
            LeNet5Profile(c, h, w, train.num_classes));
}

double LeNet5::BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                         Eigen::VectorXd* grad) const {
  return RunIn(x, features, &targets, grad, nullptr);
}

Eigen::VectorXi LeNet5::Predict(const ConstVec& x, const ConstMat& features) const {
  Eigen::VectorXi predicted;
  RunIn(x, features, nullptr, nullptr, &predicted);
  return predicted;
}

double LeNet5::RunIn(const ConstVec& x, const ConstMat& features, const ConstVec* targets,
                     Eigen::VectorXd* grad, Eigen::VectorXi* predicted) const {
  if (!single_) return Run<double>(x.data(), features, targets, grad, predicted);
  const Eigen::VectorXf w = x.cast<float>();
  return Run<float>(w.data(), features, targets, grad, predicted);
}

template <class S>
double LeNet5::Run(const S* w, const ConstMat& features, const ConstVec* targets,
                   Eigen::VectorXd* grad, Eigen::VectorXi* predicted) const {
  Activations<S> act;
  Forward(w, features, act);
  if (predicted != nullptr) *predicted = ArgmaxColumns(act.fc[kLayers]);
  if (targets == nullptr) return 0.0;
  Matrix<S> delta;
  const double loss =
      SoftmaxCrossEntropy(act.fc[kLayers], *targets, grad != nullptr ? &delta : nullptr);
  if (grad != nullptr) Backward(w, std::move(delta), act, *grad);
  return loss;
}

template <class S>
void LeNet5::ConvForward(const S* w, const WeightLayer& layer, const ConvShape& shape,
                         const S* input, int batch, ConvStage<S>& stage) const {
  Im2Col(input, shape, batch, stage.col);
  stage.z.noalias() = Weights(w, layer.offset, layer.rows, layer.cols) * stage.col;
  stage.z.colwise() += Biases(w, layer.offset, layer.rows, layer.cols);
  Relu(stage.z);
  MaxPool2x2(stage.z, shape.out_height(), shape.out_width(), batch, stage.pooled, stage.argmax);
}

template <class S>
void LeNet5::Forward(const S* w, const ConstMat& features, Activations<S>& act) const {
  const auto batch = static_cast<int>(features.cols());
  // The input must be contiguous for Im2Col (a column block of the data matrix is) and of S.
  Matrix<S> input_copy;
  const S* input = nullptr;
  if constexpr (std::is_same_v<S, double>) input = features.data();
  if (input == nullptr || features.outerStride() != features.rows()) {
    input_copy = features.template cast<S>();
    input = input_copy.data();
  }
  ConvForward(w, weight_layer(0), conv1_, input, batch, act.conv1);
  ConvForward(w, weight_layer(1), conv2_, act.conv1.pooled.data(), batch, act.conv2);
  // Fully connected layers on the flattened (16*P x B) view of the second pool.
  std::vector<Matrix<S>>& a = act.fc;
  a.resize(kLayers + 1);
  a[2] = Eigen::Map<const Matrix<S>>(act.conv2.pooled.data(), weight_layer(2).cols, batch);
  for (int l = 2; l < kLayers; ++l) {
    const WeightLayer& layer = weight_layer(l);
    a[l + 1].resize(layer.rows, batch);
    a[l + 1].noalias() = Weights(w, layer.offset, layer.rows, layer.cols) * a[l];
    a[l + 1].colwise() += Biases(w, layer.offset, layer.rows, layer.cols);
    if (l + 1 < kLayers) Relu(a[l + 1]);
  }
}

template <class S>
void LeNet5::Backward(const S* w, Matrix<S> delta, const Activations<S>& act,
                      Eigen::VectorXd& grad) const {
  const auto batch = static_cast<int>(act.fc[2].cols());
  const WeightLayer& l1 = weight_layer(0);
  const WeightLayer& l2 = weight_layer(1);
  Vector<S> g(dim());  // the gradient in S, widened into grad at the end
  auto grad_w = [&](const WeightLayer& layer) {
    return Eigen::Map<Matrix<S>>(g.data() + layer.offset, layer.rows, layer.cols);
  };
  auto grad_b = [&](const WeightLayer& layer) {
    return Eigen::Map<Vector<S>>(g.data() + layer.offset + layer.rows * layer.cols, layer.rows);
  };
  for (int l = kLayers - 1; l >= 2; --l) {
    const WeightLayer& layer = weight_layer(l);
    grad_w(layer).noalias() = delta * act.fc[l].transpose();
    grad_b(layer) = delta.rowwise().sum();
    Matrix<S> below(layer.cols, batch);
    below.noalias() = Weights(w, layer.offset, layer.rows, layer.cols).transpose() * delta;
    delta = l > 2 ? (act.fc[l].array() > S(0)).select(below, S(0)).matrix() : below;
  }
  // delta is now d loss / d p2 as (16*P x B), i.e. the (16 x B*P) tensor layout.
  const ConvStage<S>& c1 = act.conv1;
  const ConvStage<S>& c2 = act.conv2;
  Matrix<S> dz2;
  MaxPool2x2Backward(Matrix<S>(Eigen::Map<const Matrix<S>>(delta.data(), 16, c2.pooled.cols())),
                     c2.argmax, c2.z.cols(), dz2);
  dz2 = (c2.z.array() > S(0)).select(dz2, S(0));
  grad_w(l2).noalias() = dz2 * c2.col.transpose();
  grad_b(l2) = dz2.rowwise().sum();
  Matrix<S> dcol2(l2.cols, dz2.cols());
  dcol2.noalias() = Weights(w, l2.offset, l2.rows, l2.cols).transpose() * dz2;
  Matrix<S> dp1 = Matrix<S>::Zero(c1.pooled.rows(), c1.pooled.cols());
  Col2ImAdd(dcol2, conv2_, batch, dp1.data());
  Matrix<S> dz1;
  MaxPool2x2Backward(dp1, c1.argmax, c1.z.cols(), dz1);
  dz1 = (c1.z.array() > S(0)).select(dz1, S(0));
  grad_w(l1).noalias() = dz1 * c1.col.transpose();
  grad_b(l1) = dz1.rowwise().sum();
  grad = g.template cast<double>();
}

}  // namespace commsim
