// synthetic_quadratic: f_i(x) = 1/2 sum_j lambda_j (x_j - c_ij)^2 on worker i, of any dimension,
// O(d) per gradient — for timing and scaling studies at real model sizes (ResNet-18: d =
// 11,173,962) where the learning task itself does not matter.
//
//   lambda_j   log-spaced from lambda_min (j = 0) to lambda_max (j = d-1): condition number
//              lambda_max / lambda_min
//   c_ij       = c_j + heterogeneity * r_{(j + o_i) mod d}: a common centre c ~ N(0, 1) and one
//              shared vector r ~ N(0, 1) seen by worker i cyclically shifted by o_i = i d / n,
//              so the per-worker optima differ without storing n x d numbers
//   noise      stochastic gradients add noise / sqrt(batch) x (approximately Gaussian, unit
//              variance: Irwin-Hall sum of four uniforms) per coordinate; full batch is exact
// x* = mean_i c_i (computed once, O(n d)); F(x) = 1/2 sum_j lambda_j (x_j - x*_j)^2 + F(x*), so
// Loss() is O(d). shard_size() is the nominal samples_per_worker (defines "full batch").
// profile     a shipped layer profile by name (models/layer_profile.h, e.g. "resnet18"): the
//             objective then reports those layers and their FLOPs to the time model, so a run is
//             timed like that network; d defaults to (and must equal) the profile's parameter
//             count, and flops_per_sample comes from the profile.
// Memory: three d-vectors (c, r, x*) and about one byte per coordinate for lambda: lambda_j is
// stored as the bit-pattern difference between it and a cheap approximation (block start times a
// per-offset factor), which rebuilds every lambda_j exactly (the full d-vector when a difference
// does not fit in a byte).
#ifndef COMMSIM_MODELS_SYNTHETIC_QUADRATIC_H_
#define COMMSIM_MODELS_SYNTHETIC_QUADRATIC_H_

#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "base/params.h"
#include "models/model_factory.h"
#include "models/objective.h"

namespace commsim {

struct SyntheticQuadraticConfig final : ConfigBase<SyntheticQuadraticConfig> {
  int64_t dim = 0;  // 0 = the profile's parameter count, or kDefaultDim without a profile
  double lambda_min = 1.0;
  double lambda_max = 100.0;
  double heterogeneity = 1.0;
  double noise = 0.0;
  int64_t samples_per_worker = 1000;
  double flops_per_sample = 0.0;  // 0 = 3 dim, or the profile's forward + backward
  std::string profile;            // "" = none
  static constexpr int64_t kDefaultDim = 1000;
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

// The curvatures lambda_j, stored exactly in about one byte each: lambda_j is the double whose bit
// pattern is bits(anchor[j / kBlock] * factor[j % kBlock]) + fix[j] (anchor: lambda at each
// block's start; factor[k]: (lambda_max / lambda_min)^(k / (d - 1))), or full[j] when some fix
// does not fit in int8 (extreme condition numbers).
struct QuadraticCurvatures {
  static constexpr int64_t kBlock = 256;
  std::vector<double> anchor, factor;
  std::vector<int8_t> fix;
  Eigen::VectorXd full;  // empty unless the fixes do not fit

  void Init(const SyntheticQuadraticConfig& config, int64_t dim);
  // out[k] = lambda_{begin + k} for k < n. REQUIRES: begin % kBlock == 0.
  void Fill(int64_t begin, int64_t n, double* out) const;
  double At(int64_t j) const {
    if (full.size() > 0) return full[j];
    const double approx =
        anchor[static_cast<size_t>(j / kBlock)] * factor[static_cast<size_t>(j % kBlock)];
    return std::bit_cast<double>(std::bit_cast<int64_t>(approx) + fix[static_cast<size_t>(j)]);
  }
};

class SyntheticQuadratic final : public Objective {
 public:
  SyntheticQuadratic(const SyntheticQuadraticConfig& config, int workers, uint64_t seed);
  std::string_view Name() const override { return "synthetic_quadratic"; }
  int64_t dim() const override { return dim_; }
  int num_workers() const override { return workers_; }
  int64_t shard_size(int) const override { return config_.samples_per_worker; }
  double Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t batch, Rng& rng,
                  Eigen::Ref<Eigen::VectorXd> grad) const override;
  bool FiniteGradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t batch,
                      Rng& rng, Eigen::Ref<Eigen::VectorXd> grad) const override;
  // Gradients are computed in chunks of this many coordinates (the curvatures of a chunk made
  // once for all workers). 32 blocks: each stream then reads 64 KB runs of the shared vector,
  // which the memory system streams better than 8 KB runs (about 20% less time in the gradient at
  // d = 11.2M, n = 8); the chunk buffers live in L2. No result depends on it.
  static constexpr int64_t kChunk = 32 * QuadraticCurvatures::kBlock;
  // In chunks of kChunk coordinates, interleaved: chunk k of every stream before chunk k + 1 of
  // any, the chunk's curvatures, center and point read once for all of them. When every stream
  // takes its chunks in any order (sink_at) and none is noisy, the chunks go segment by segment
  // instead (StreamBySegments): the shared vector is then read once for all streams, not once
  // each (at d = 11.2M, n = 8: 53 bytes a coordinate instead of 109).
  bool StreamFiniteGradients(std::span<GradientStream> streams) const override;
  double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const override;
  const Optimum* optimum() const override { return &optimum_; }
  double flops_per_sample() const override;
  const LayerProfile* layers() const override { return profile_; }
  void InitialPoint(Rng&, Eigen::Ref<Eigen::VectorXd> x0) const override { x0.setZero(); }

  // lambda_j for every j (built on each call; tests).
  Eigen::VectorXd lambda() const;
  // c_ij for tests.
  double center(int worker, int64_t j) const;

 private:
  // One gradient evaluation: its inputs and running results.
  struct Pass {
    const double* x;   // the point, or nullptr when it is x32
    const float* x32;  // the point in fp32 (x_j = double(x32[j])), or nullptr
    int64_t shift;     // the worker's o_i
    bool noisy;
    double sigma;
    Rng* rng;
    double loss = 0.0;  // sum of lambda_j (x_j - c_ij)^2 so far
    uint64_t bad = 0;   // NonFiniteFlag of the values so far
  };
  // REQUIRES: exactly one of x, x32 is set (dim() values).
  Pass Begin(int worker, const double* x, const float* x32, int64_t batch, Rng& rng) const;
  // lam: the curvatures lambda_begin.. of the chunk (QuadraticCurvatures::Fill). Point: the
  // type of p's point (double: p.x, float: p.x32).
  template <class Point>
  static const Point* PointOf(const Pass& p) {
    if constexpr (std::is_same_v<Point, float>) {
      return p.x32;
    } else {
      return p.x;
    }
  }
  template <bool kLoss, class Point>
  void FillChunk(Pass& p, int64_t begin, int64_t end, const double* lam, double* out) const;
  // StreamFiniteGradients' two orders (synthetic_quadratic_streams.cc): chunk by chunk from the
  // start, or (every stream has a sink_at, none is noisy) a chunk of every segment between two
  // workers' shifts at a time. FillStreams: every stream's values on [begin, end) into its sink
  // (`at`: its sink_at); lam holds lambda_begin...
  void StreamInOrder(std::span<GradientStream> streams, std::span<Pass> passes) const;
  void StreamBySegments(std::span<GradientStream> streams, std::span<Pass> passes) const;
  void FillStreams(std::span<GradientStream> streams, std::span<Pass> passes, int64_t begin,
                   int64_t end, const double* lam, double* chunk, bool at) const;
  // Every chunk into grad.
  template <bool kLoss>
  Pass FillAll(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t batch, Rng& rng,
               Eigen::Ref<Eigen::VectorXd> grad) const;
  SyntheticQuadraticConfig config_;
  const LayerProfile* profile_;  // a shipped profile or nullptr
  int64_t dim_;
  int workers_;
  void InitOptimum();
  QuadraticCurvatures lambda_;
  Eigen::VectorXd center_, shared_;
  std::vector<int64_t> shift_;
  Optimum optimum_;
};

class SyntheticQuadraticFactory final : public ModelFactory {
 public:
  explicit SyntheticQuadraticFactory(const SyntheticQuadraticConfig& config) : config_(config) {}
  bool needs_data() const override { return false; }
  std::unique_ptr<Objective> Build(std::shared_ptr<const ProblemData>, int workers,
                                   uint64_t seed) const override {
    return std::make_unique<SyntheticQuadratic>(config_, workers, seed);
  }

 private:
  SyntheticQuadraticConfig config_;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_SYNTHETIC_QUADRATIC_H_
