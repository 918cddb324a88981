#include "models/nn_ops.h"

#include <cmath>

#include "base/check.h"

namespace commsim {

namespace {

template <class S>
using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

template <class S>
double SoftmaxCrossEntropyT(const Eigen::Ref<const Matrix<S>>& logits,
                            const Eigen::Ref<const Eigen::VectorXd>& labels, Matrix<S>* dlogits) {
  const Eigen::Index k = logits.rows();
  const Eigen::Index b = logits.cols();
  COMMSIM_CHECK(labels.size() == b, "labels {} vs batch {}", labels.size(), b);
  if (dlogits != nullptr) dlogits->resize(k, b);
  double total = 0.0;
  for (Eigen::Index j = 0; j < b; ++j) {
    const auto at = [&](Eigen::Index i) { return static_cast<double>(logits(i, j)); };
    const double max = static_cast<double>(logits.col(j).maxCoeff());
    double sum = 0.0;
    for (Eigen::Index i = 0; i < k; ++i) sum += std::exp(at(i) - max);
    const auto label = static_cast<Eigen::Index>(labels[j]);
    total += max + std::log(sum) - at(label);
    if (dlogits != nullptr) {
      const double inv = 1.0 / (sum * static_cast<double>(b));
      for (Eigen::Index i = 0; i < k; ++i) {
        (*dlogits)(i, j) = static_cast<S>(std::exp(at(i) - max) * inv);
      }
      (*dlogits)(label, j) -= static_cast<S>(1.0 / static_cast<double>(b));
    }
  }
  return total / static_cast<double>(b);
}

template <class S>
Eigen::VectorXi ArgmaxColumnsT(const Eigen::Ref<const Matrix<S>>& scores) {
  Eigen::VectorXi out(scores.cols());
  for (Eigen::Index j = 0; j < scores.cols(); ++j) {
    Eigen::Index best = 0;
    scores.col(j).maxCoeff(&best);
    out[j] = static_cast<int>(best);
  }
  return out;
}

template <class S>
void Im2ColT(const S* input, const ConvShape& s, int batch, Matrix<S>& col) {
  const int ho = s.out_height(), wo = s.out_width(), c = s.channels, k = s.kernel;
  col.resize(s.patch(), static_cast<Eigen::Index>(batch) * ho * wo);
  for (int b = 0; b < batch; ++b) {
    const S* image = input + static_cast<int64_t>(b) * s.height * s.width * c;
    for (int oy = 0; oy < ho; ++oy) {
      for (int ox = 0; ox < wo; ++ox) {
        S* dst = col.data() + (static_cast<int64_t>(b) * ho * wo + oy * wo + ox) * s.patch();
        for (int ky = 0; ky < k; ++ky) {
          const int iy = oy + ky - s.pad;
          for (int kx = 0; kx < k; ++kx, dst += c) {
            const int ix = ox + kx - s.pad;
            if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) {
              for (int ch = 0; ch < c; ++ch) dst[ch] = S(0);
            } else {
              const S* src = image + (static_cast<int64_t>(iy) * s.width + ix) * c;
              for (int ch = 0; ch < c; ++ch) dst[ch] = src[ch];
            }
          }
        }
      }
    }
  }
}

template <class S>
void Col2ImAddT(const Matrix<S>& col_grad, const ConvShape& s, int batch, S* input_grad) {
  const int ho = s.out_height(), wo = s.out_width(), c = s.channels, k = s.kernel;
  for (int b = 0; b < batch; ++b) {
    S* image = input_grad + static_cast<int64_t>(b) * s.height * s.width * c;
    for (int oy = 0; oy < ho; ++oy) {
      for (int ox = 0; ox < wo; ++ox) {
        const S* src =
            col_grad.data() + (static_cast<int64_t>(b) * ho * wo + oy * wo + ox) * s.patch();
        for (int ky = 0; ky < k; ++ky) {
          const int iy = oy + ky - s.pad;
          for (int kx = 0; kx < k; ++kx, src += c) {
            const int ix = ox + kx - s.pad;
            if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) continue;
            S* dst = image + (static_cast<int64_t>(iy) * s.width + ix) * c;
            for (int ch = 0; ch < c; ++ch) dst[ch] += src[ch];
          }
        }
      }
    }
  }
}

template <class S>
void MaxPool2x2T(const Eigen::Ref<const Matrix<S>>& in, int height, int width, int batch,
                 Matrix<S>& out, std::vector<int32_t>& argmax) {
  const Eigen::Index c = in.rows();
  const int ho = height / 2, wo = width / 2;
  out.resize(c, static_cast<Eigen::Index>(batch) * ho * wo);
  argmax.resize(static_cast<size_t>(out.size()));
  for (int b = 0; b < batch; ++b) {
    for (int oy = 0; oy < ho; ++oy) {
      for (int ox = 0; ox < wo; ++ox) {
        const Eigen::Index o = static_cast<Eigen::Index>(b) * ho * wo + oy * wo + ox;
        const Eigen::Index base = static_cast<Eigen::Index>(b) * height * width;
        const Eigen::Index src[4] = {
            base + 2 * oy * width + 2 * ox, base + 2 * oy * width + 2 * ox + 1,
            base + (2 * oy + 1) * width + 2 * ox, base + (2 * oy + 1) * width + 2 * ox + 1};
        for (Eigen::Index ch = 0; ch < c; ++ch) {
          Eigen::Index best = src[0];
          for (int q = 1; q < 4; ++q) {
            if (in(ch, src[q]) > in(ch, best)) best = src[q];
          }
          out(ch, o) = in(ch, best);
          argmax[static_cast<size_t>(o * c + ch)] = static_cast<int32_t>(best);
        }
      }
    }
  }
}

template <class S>
void MaxPool2x2BackwardT(const Matrix<S>& out_grad, const std::vector<int32_t>& argmax,
                         Eigen::Index in_cols, Matrix<S>& in_grad) {
  const Eigen::Index c = out_grad.rows();
  in_grad.setZero(c, in_cols);
  for (Eigen::Index o = 0; o < out_grad.cols(); ++o) {
    for (Eigen::Index ch = 0; ch < c; ++ch) {
      in_grad(ch, argmax[static_cast<size_t>(o * c + ch)]) += out_grad(ch, o);
    }
  }
}

}  // namespace

#define COMMSIM_NN_OPS(S)                                                                   \
  double SoftmaxCrossEntropy(const Eigen::Ref<const Matrix<S>>& logits,                     \
                             const Eigen::Ref<const Eigen::VectorXd>& labels,               \
                             Matrix<S>* dlogits) {                                          \
    return SoftmaxCrossEntropyT<S>(logits, labels, dlogits);                                \
  }                                                                                         \
  Eigen::VectorXi ArgmaxColumns(const Eigen::Ref<const Matrix<S>>& scores) {                \
    return ArgmaxColumnsT<S>(scores);                                                       \
  }                                                                                         \
  void Im2Col(const S* input, const ConvShape& s, int batch, Matrix<S>& col) {              \
    Im2ColT<S>(input, s, batch, col);                                                       \
  }                                                                                         \
  void Col2ImAdd(const Matrix<S>& col_grad, const ConvShape& s, int batch, S* input_grad) { \
    Col2ImAddT<S>(col_grad, s, batch, input_grad);                                          \
  }                                                                                         \
  void MaxPool2x2(const Eigen::Ref<const Matrix<S>>& in, int height, int width, int batch,  \
                  Matrix<S>& out, std::vector<int32_t>& argmax) {                           \
    MaxPool2x2T<S>(in, height, width, batch, out, argmax);                                  \
  }                                                                                         \
  void MaxPool2x2Backward(const Matrix<S>& out_grad, const std::vector<int32_t>& argmax,    \
                          Eigen::Index in_cols, Matrix<S>& in_grad) {                       \
    MaxPool2x2BackwardT<S>(out_grad, argmax, in_cols, in_grad);                             \
  }

COMMSIM_NN_OPS(double)
COMMSIM_NN_OPS(float)
#undef COMMSIM_NN_OPS

}  // namespace commsim
