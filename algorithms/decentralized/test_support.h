// Small hand-made compressors, objectives and graphs for the decentralized tests (header-only, test
// use only). The compressors write real bitstreams so the bits they report are what they wrote.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_TEST_SUPPORT_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_TEST_SUPPORT_H_

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <vector>

#include "algorithms/test_objective.h"
#include "base/rng.h"
#include "compression/compressors/compressor.h"
#include "models/compute_time.h"
#include "models/objective.h"

namespace commsim::testing {

// Decodes one 64-bit word per element, the double's bits, into `target`.
inline void DecodeF64Words(const Message& m, const DecodeTarget& target) {
  Eigen::VectorXd out(target.size());
  for (Eigen::Index j = 0; j < out.size(); ++j) out[j] = std::bit_cast<double>(m.words[j]);
  target.PutAll(out);
}

// Decodes words holding an index (upper 32 bits) and an fp32 value (lower 32 bits) into
// `target`, zero elsewhere.
inline void DecodeIndexedWords(const Message& m, const DecodeTarget& target) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(target.size());
  for (uint64_t w : m.words) {
    out[static_cast<Eigen::Index>(w >> 32)] = std::bit_cast<float>(static_cast<uint32_t>(w));
  }
  target.PutAll(out);
}

// Full double precision: 64 bits per element, exact.
class ExactCompressor final : public Compressor {
 public:
  ExactCompressor() : Compressor("exact64", /*unbiased=*/true) {}
  double ErrorFactor(int64_t) const override { return 0.0; }
  Expectation Expected(const Eigen::Ref<const Eigen::VectorXd>&) const override { return {}; }
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng&,
                     const DecodeTarget* target) const override {
    Message m;
    for (Eigen::Index j = 0; j < x.size(); ++j) m.words.push_back(std::bit_cast<uint64_t>(x[j]));
    m.payload_bits = 64 * x.size();
    DeliverDecoded(m, target);
    return m;
  }
  void DecodeInto(const Message& m, const DecodeTarget& target) const override {
    DecodeF64Words(m, target);
  }
};

// Keeps the k largest |x_j| (ties: lower index); per kept entry a 64-bit word holding the index
// (upper 32 bits) and the fp32 value (lower 32 bits).
class TopKCompressor final : public Compressor {
 public:
  explicit TopKCompressor(int k) : Compressor("top_k_test", /*unbiased=*/false), k_(k) {}
  double ErrorFactor(int64_t dim) const override { return 1.0 - std::min<double>(k_, dim) / dim; }
  Expectation Expected(const Eigen::Ref<const Eigen::VectorXd>&) const override { return {}; }
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng&,
                     const DecodeTarget* target) const override {
    std::vector<int> idx(x.size());
    std::iota(idx.begin(), idx.end(), 0);
    const int k = std::min<int>(k_, static_cast<int>(x.size()));
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](int a, int b) {
      return std::abs(x[a]) > std::abs(x[b]) || (std::abs(x[a]) == std::abs(x[b]) && a < b);
    });
    Message m;
    for (int i = 0; i < k; ++i) {
      const uint32_t v = std::bit_cast<uint32_t>(static_cast<float>(x[idx[i]]));
      m.words.push_back((static_cast<uint64_t>(idx[i]) << 32) | v);
    }
    m.payload_bits = 64 * k;
    DeliverDecoded(m, target);
    return m;
  }
  void DecodeInto(const Message& m, const DecodeTarget& target) const override {
    DecodeIndexedWords(m, target);
  }

 private:
  int k_;
};

// Unbiased random sparsification using the Rng: keeps each entry with probability 1/2, scaled by 2
// (so runs with different streams differ). Same word layout as TopKCompressor.
class RandomHalfCompressor final : public Compressor {
 public:
  RandomHalfCompressor() : Compressor("random_half_test", /*unbiased=*/true) {}
  double ErrorFactor(int64_t) const override { return 1.0; }  // E||Q(x) - x||^2 = ||x||^2
  Expectation Expected(const Eigen::Ref<const Eigen::VectorXd>&) const override { return {}; }
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override {
    Message m;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      if (rng.Bernoulli(0.5)) {
        const uint32_t v = std::bit_cast<uint32_t>(static_cast<float>(2.0 * x[j]));
        m.words.push_back((static_cast<uint64_t>(j) << 32) | v);
      }
    }
    m.payload_bits = 64 * static_cast<int64_t>(m.words.size());
    DeliverDecoded(m, target);
    return m;
  }
  void DecodeInto(const Message& m, const DecodeTarget& target) const override {
    DecodeIndexedWords(m, target);
  }
};

// f_w(x) = 1/2 ||x - c_w||^2 (+ l1 ||x||_1), with optional Gaussian gradient noise of std `noise`.
// x* = soft_threshold(mean c_w, l1).
class QuadraticObjective final : public test_objective::TestObjective {
 public:
  QuadraticObjective(int workers, int dim, uint64_t seed, double l1 = 0.0, double noise = 0.0)
      : TestObjective("quadratic_test", dim, workers, 1, 2.0 * dim),
        c_(dim, workers),
        l1_(l1),
        noise_(noise) {
    Rng rng(seed);
    for (int w = 0; w < workers; ++w) {
      for (int j = 0; j < dim; ++j) c_(j, w) = 2.0 * rng.Normal();
    }
    opt_.x = c_.rowwise().mean();
    opt_.x = opt_.x.array().sign() * (opt_.x.array().abs() - l1).max(0.0);
    opt_.loss = Loss(opt_.x);
  }
  double Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t, Rng& rng,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    grad = x - c_.col(worker);
    if (noise_ > 0.0) {
      for (Eigen::Index j = 0; j < grad.size(); ++j) grad[j] += noise_ * rng.Normal();
    }
    return 0.5 * (x - c_.col(worker)).squaredNorm();
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const override {
    double f = 0;
    for (Eigen::Index w = 0; w < c_.cols(); ++w) f += 0.5 * (x - c_.col(w)).squaredNorm();
    return f / static_cast<double>(c_.cols()) + l1_ * x.lpNorm<1>();
  }
  const Optimum* optimum() const override { return &opt_; }
  double l1() const override { return l1_; }

 private:
  Eigen::MatrixXd c_;
  double l1_, noise_;
  Optimum opt_;
};

inline std::vector<std::vector<int>> RingNeighbours(int n) {
  std::vector<std::vector<int>> nb(n);
  for (int i = 0; i < n; ++i) nb[i] = {(i + n - 1) % n, (i + 1) % n};
  return nb;
}

inline std::vector<std::vector<int>> TorusNeighbours(int rows, int cols) {
  std::vector<std::vector<int>> nb(rows * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      nb[r * cols + c] = {((r + rows - 1) % rows) * cols + c, ((r + 1) % rows) * cols + c,
                          r * cols + (c + cols - 1) % cols, r * cols + (c + 1) % cols};
    }
  }
  return nb;
}

// A connected random graph: a path plus each other pair with probability p.
inline std::vector<std::vector<int>> RandomNeighbours(int n, double p, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<int>> nb(n);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (j == i + 1 || rng.Bernoulli(p)) {
        nb[i].push_back(j);
        nb[j].push_back(i);
      }
    }
  }
  for (auto& l : nb) std::sort(l.begin(), l.end());
  return nb;
}

// A fixed compute time of `compute_s` per step; with `layerwise`, overlap in buckets of
// `bucket_params` fp32 parameters.
inline ComputeTimeConfig FixedCompute(double compute_s, bool layerwise, int64_t bucket_params) {
  ComputeTimeConfig cc;
  cc.seconds = compute_s;
  cc.overlap = layerwise ? "layerwise" : "none";
  cc.bucket_bits = bucket_params * 32;
  return cc;
}

}  // namespace commsim::testing

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_TEST_SUPPORT_H_
