// lenet5: LeCun et al.'s LeNet-5 as used in the DORE paper's MNIST experiment:
//   conv 5x5 (6, pad 2) -> ReLU -> maxpool 2 -> conv 5x5 (16) -> ReLU -> maxpool 2
//   -> fc 120 -> ReLU -> fc 84 -> ReLU -> fc classes, softmax cross-entropy.
// On 1x28x28 MNIST with 10 classes: 61,706 parameters. Convolutions are im2col + one Eigen GEMM
// per layer and direction over the whole batch (see nn_ops.h for the tensor layout; images
// must be stored pixel-major, channels fastest, which single-channel data is trivially).
// Parameter order: conv1 W (6 x 25C), b; conv2 W (16 x 150), b; fc1 W (120 x 400), b; fc2; fc3.
// `precision`: "float32" (default) computes the forward and backward passes in single precision,
// as PyTorch trains (the parameters are rounded to float for the pass, the gradient widened to
// double; the loss is summed in double); "float64" in double, for gradient checks.
// A LayeredObjective (models/layered_objective.h): He initialisation; layers() and FLOPs per
// sample from LeNet5Profile (models/profiles.h) of the data's image shape, 6 x the multiply-adds
// of the weights (forward 2, backward 4).
#ifndef COMMSIM_MODELS_LENET5_H_
#define COMMSIM_MODELS_LENET5_H_

#include <string>
#include <vector>

#include "base/params.h"
#include "models/layered_objective.h"
#include "models/nn_ops.h"

namespace commsim {

struct LeNet5Config final : ConfigBase<LeNet5Config> {
  double l2 = 0.0;
  std::string precision = "float32";
  void Describe(ParamVisitor& v) override;
};

class LeNet5 final : public LayeredObjective {
 public:
  LeNet5(const LeNet5Config& config, std::shared_ptr<const ProblemData> data);
  std::string_view Name() const override { return "lenet5"; }
  double BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                   Eigen::VectorXd* grad) const override;
  Eigen::VectorXi Predict(const ConstVec& x, const ConstMat& features) const override;

 protected:
  int64_t eval_chunk() const override { return 64; }

 private:
  static constexpr int kLayers = 5;
  template <class S>
  using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  // One convolution stage's forward values, kept for the backward pass.
  template <class S>
  struct ConvStage {
    Matrix<S> col;     // Im2Col of the stage's input
    Matrix<S> z;       // W col + b after ReLU
    Matrix<S> pooled;  // 2x2 max-pool of z
    std::vector<int32_t> argmax;
  };
  template <class S>
  struct Activations {
    ConvStage<S> conv1, conv2;
    std::vector<Matrix<S>> fc;  // fc[l] = input of layer l (l >= 2); fc[kLayers] = logits
  };
  // The pass in scalar S; `w` is x (S = double) or x rounded to float.
  template <class S>
  double Run(const S* w, const ConstMat& features, const ConstVec* targets, Eigen::VectorXd* grad,
             Eigen::VectorXi* predicted) const;
  template <class S>
  void ConvForward(const S* w, const WeightLayer& layer, const ConvShape& shape, const S* input,
                   int batch, ConvStage<S>& stage) const;
  template <class S>
  void Forward(const S* w, const ConstMat& features, Activations<S>& act) const;
  // Fills grad from delta = d loss / d logits.
  template <class S>
  void Backward(const S* w, Matrix<S> delta, const Activations<S>& act,
                Eigen::VectorXd& grad) const;
  double RunIn(const ConstVec& x, const ConstMat& features, const ConstVec* targets,
               Eigen::VectorXd* grad, Eigen::VectorXi* predicted) const;

  bool single_;
  ConvShape conv1_{}, conv2_{};
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_LENET5_H_
