#include "models/nn_ops.h"

#include <cmath>

#include "base/check.h"

namespace commsim {

double SoftmaxCrossEntropy(const Eigen::Ref<const Eigen::MatrixXd>& logits,
                           const Eigen::Ref<const Eigen::VectorXd>& labels,
                           Eigen::MatrixXd* dlogits) {
  const Eigen::Index k = logits.rows();
  const Eigen::Index b = logits.cols();
  COMMSIM_CHECK(labels.size() == b, "labels {} vs batch {}", labels.size(), b);
  if (dlogits != nullptr) dlogits->resize(k, b);
  double total = 0.0;
  for (Eigen::Index j = 0; j < b; ++j) {
    const double max = logits.col(j).maxCoeff();
    double sum = 0.0;
    for (Eigen::Index i = 0; i < k; ++i) sum += std::exp(logits(i, j) - max);
    const auto label = static_cast<Eigen::Index>(labels[j]);
    total += max + std::log(sum) - logits(label, j);
    if (dlogits != nullptr) {
      const double inv = 1.0 / (sum * static_cast<double>(b));
      for (Eigen::Index i = 0; i < k; ++i) (*dlogits)(i, j) = std::exp(logits(i, j) - max) * inv;
      (*dlogits)(label, j) -= 1.0 / static_cast<double>(b);
    }
  }
  return total / static_cast<double>(b);
}

Eigen::VectorXi ArgmaxColumns(const Eigen::Ref<const Eigen::MatrixXd>& scores) {
  Eigen::VectorXi out(scores.cols());
  for (Eigen::Index j = 0; j < scores.cols(); ++j) {
    Eigen::Index best = 0;
    scores.col(j).maxCoeff(&best);
    out[j] = static_cast<int>(best);
  }
  return out;
}

void Im2Col(const double* input, const ConvShape& s, int batch, Eigen::MatrixXd& col) {
  const int ho = s.out_height(), wo = s.out_width(), c = s.channels, k = s.kernel;
  col.resize(s.patch(), static_cast<Eigen::Index>(batch) * ho * wo);
  for (int b = 0; b < batch; ++b) {
    const double* image = input + static_cast<int64_t>(b) * s.height * s.width * c;
    for (int oy = 0; oy < ho; ++oy) {
      for (int ox = 0; ox < wo; ++ox) {
        double* dst = col.data() + (static_cast<int64_t>(b) * ho * wo + oy * wo + ox) * s.patch();
        for (int ky = 0; ky < k; ++ky) {
          const int iy = oy + ky - s.pad;
          for (int kx = 0; kx < k; ++kx, dst += c) {
            const int ix = ox + kx - s.pad;
            if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) {
              for (int ch = 0; ch < c; ++ch) dst[ch] = 0.0;
            } else {
              const double* src = image + (static_cast<int64_t>(iy) * s.width + ix) * c;
              for (int ch = 0; ch < c; ++ch) dst[ch] = src[ch];
            }
          }
        }
      }
    }
  }
}

void Col2ImAdd(const Eigen::MatrixXd& col_grad, const ConvShape& s, int batch, double* input_grad) {
  const int ho = s.out_height(), wo = s.out_width(), c = s.channels, k = s.kernel;
  for (int b = 0; b < batch; ++b) {
    double* image = input_grad + static_cast<int64_t>(b) * s.height * s.width * c;
    for (int oy = 0; oy < ho; ++oy) {
      for (int ox = 0; ox < wo; ++ox) {
        const double* src =
            col_grad.data() + (static_cast<int64_t>(b) * ho * wo + oy * wo + ox) * s.patch();
        for (int ky = 0; ky < k; ++ky) {
          const int iy = oy + ky - s.pad;
          for (int kx = 0; kx < k; ++kx, src += c) {
            const int ix = ox + kx - s.pad;
            if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) continue;
            double* dst = image + (static_cast<int64_t>(iy) * s.width + ix) * c;
            for (int ch = 0; ch < c; ++ch) dst[ch] += src[ch];
          }
        }
      }
    }
  }
}

void MaxPool2x2(const Eigen::Ref<const Eigen::MatrixXd>& in, int height, int width, int batch,
                Eigen::MatrixXd& out, std::vector<int32_t>& argmax) {
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

void MaxPool2x2Backward(const Eigen::MatrixXd& out_grad, const std::vector<int32_t>& argmax,
                        Eigen::Index in_cols, Eigen::MatrixXd& in_grad) {
  const Eigen::Index c = out_grad.rows();
  in_grad.setZero(c, in_cols);
  for (Eigen::Index o = 0; o < out_grad.cols(); ++o) {
    for (Eigen::Index ch = 0; ch < c; ++ch) {
      in_grad(ch, argmax[static_cast<size_t>(o * c + ch)]) += out_grad(ch, o);
    }
  }
}

}  // namespace commsim
