// lenet5: LeCun et al.'s LeNet-5 as used in the DORE paper's MNIST experiment:
//   conv 5x5 (6, pad 2) -> ReLU -> maxpool 2 -> conv 5x5 (16) -> ReLU -> maxpool 2
//   -> fc 120 -> ReLU -> fc 84 -> ReLU -> fc classes, softmax cross-entropy.
// On 1x28x28 MNIST with 10 classes: 61,706 parameters. Convolutions are im2col + one Eigen GEMM
// per layer and direction over the whole batch (see nn_ops.h for the tensor layout; images
// must be stored pixel-major, channels fastest, which single-channel data is trivially).
// Parameter order: conv1 W (6 x 25C), b; conv2 W (16 x 150), b; fc1 W (120 x 400), b; fc2; fc3.
// A LayeredObjective (models/layered_objective.h): He initialisation; layers() and FLOPs per
// sample from LeNet5Profile (models/profiles.h) of the data's image shape, 6 x the multiply-adds
// of the weights (forward 2, backward 4).
#ifndef COMMSIM_MODELS_LENET5_H_
#define COMMSIM_MODELS_LENET5_H_

#include <vector>

#include "base/params.h"
#include "models/layered_objective.h"
#include "models/nn_ops.h"

namespace commsim {

struct LeNet5Config final : ConfigBase<LeNet5Config> {
  double l2 = 0.0;
  void Describe(ParamVisitor& v) override {
    v.Real("l2", l2, Range::NonNegative(), "weight decay: adds (l2/2)||x||^2");
  }
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
  // One convolution stage's forward values, kept for the backward pass.
  struct ConvStage {
    Eigen::MatrixXd col;     // Im2Col of the stage's input
    Eigen::MatrixXd z;       // W col + b after ReLU
    Eigen::MatrixXd pooled;  // 2x2 max-pool of z
    std::vector<int32_t> argmax;
  };
  struct Activations {
    ConvStage conv1, conv2;
    std::vector<Eigen::MatrixXd> fc;  // fc[l] = input of layer l (l >= 2); fc[kLayers] = logits
  };
  double Run(const ConstVec& x, const ConstMat& features, const ConstVec* targets,
             Eigen::VectorXd* grad, Eigen::VectorXi* predicted) const;
  void ConvForward(const ConstVec& x, const WeightLayer& layer, const ConvShape& shape,
                   const double* input, int batch, ConvStage& stage) const;
  void Forward(const ConstVec& x, const ConstMat& features, Activations& act) const;
  // Fills grad from delta = d loss / d logits.
  void Backward(const ConstVec& x, Eigen::MatrixXd delta, const Activations& act,
                Eigen::VectorXd& grad) const;

  ConvShape conv1_{}, conv2_{};
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_LENET5_H_
