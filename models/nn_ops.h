// Building blocks shared by the classifiers: softmax cross-entropy, im2col convolution and 2x2
// max pooling on batched Eigen matrices, in double and in float (the same operations; the float
// ones for networks that train in single precision, models/lenet5.h). The loss is summed in
// double either way.
//
// Tensor layout: a batch of B images with C channels of H x W is a (C x B*H*W) column-major
// matrix whose column b*H*W + y*W + x holds the C channel values of pixel (y, x) of image b.
// A (features x B) batch of single-channel images is this layout as is, and a (C x B*P) tensor
// read as a (C*P x B) matrix is its per-sample flattening, so layers pass data without copies.
#ifndef COMMSIM_MODELS_NN_OPS_H_
#define COMMSIM_MODELS_NN_OPS_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace commsim {

// Mean over the B columns of logsumexp(logits) - logits(label). When dlogits is non-null it
// receives (softmax(logits) - onehot(label)) / B. labels: B class indices stored as doubles.
double SoftmaxCrossEntropy(const Eigen::Ref<const Eigen::MatrixXd>& logits,
                           const Eigen::Ref<const Eigen::VectorXd>& labels,
                           Eigen::MatrixXd* dlogits);

double SoftmaxCrossEntropy(const Eigen::Ref<const Eigen::MatrixXf>& logits,
                           const Eigen::Ref<const Eigen::VectorXd>& labels,
                           Eigen::MatrixXf* dlogits);
// Index of the largest entry of each column.
Eigen::VectorXi ArgmaxColumns(const Eigen::Ref<const Eigen::MatrixXd>& scores);
Eigen::VectorXi ArgmaxColumns(const Eigen::Ref<const Eigen::MatrixXf>& scores);

struct ConvShape {
  int channels, height, width, kernel, pad;
  int out_height() const { return height + 2 * pad - kernel + 1; }
  int out_width() const { return width + 2 * pad - kernel + 1; }
  int patch() const { return channels * kernel * kernel; }
};

// col: (C*k*k) x (B*Ho*Wo); row (ky*k + kx)*C + c of column b*Ho*Wo + oy*Wo + ox holds input
// channel c at (oy + ky - pad, ox + kx - pad), zero outside the image.
void Im2Col(const double* input, const ConvShape& s, int batch, Eigen::MatrixXd& col);
void Im2Col(const float* input, const ConvShape& s, int batch, Eigen::MatrixXf& col);
// The adjoint of Im2Col: input_grad (C x B*H*W, zeroed by the caller) += scatter of col_grad.
void Col2ImAdd(const Eigen::MatrixXd& col_grad, const ConvShape& s, int batch, double* input_grad);
void Col2ImAdd(const Eigen::MatrixXf& col_grad, const ConvShape& s, int batch, float* input_grad);

// 2x2 max pooling, stride 2 (H, W even). out: C x B*(H/2)*(W/2); argmax: the source column of
// every output element (same shape, column-major), for the backward pass.
void MaxPool2x2(const Eigen::Ref<const Eigen::MatrixXd>& in, int height, int width, int batch,
                Eigen::MatrixXd& out, std::vector<int32_t>& argmax);
void MaxPool2x2(const Eigen::Ref<const Eigen::MatrixXf>& in, int height, int width, int batch,
                Eigen::MatrixXf& out, std::vector<int32_t>& argmax);
// in_grad (resized and zeroed here) receives out_grad routed through argmax.
void MaxPool2x2Backward(const Eigen::MatrixXd& out_grad, const std::vector<int32_t>& argmax,
                        Eigen::Index in_cols, Eigen::MatrixXd& in_grad);
void MaxPool2x2Backward(const Eigen::MatrixXf& out_grad, const std::vector<int32_t>& argmax,
                        Eigen::Index in_cols, Eigen::MatrixXf& in_grad);

}  // namespace commsim

#endif  // COMMSIM_MODELS_NN_OPS_H_
