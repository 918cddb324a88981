#include "models/synthetic_quadratic.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "base/check.h"
#include "base/finite.h"
#include "models/dataset.h"
#include "models/quadratic_kernels.h"

namespace commsim {
namespace {

// Approximately standard normal from one 64-bit draw: four 16-bit uniforms, Irwin-Hall.
inline double FastNormal(Rng& rng) {
  const uint64_t bits = rng.NextU64();
  const double sum = static_cast<double>((bits & 0xffff) + ((bits >> 16) & 0xffff) +
                                         ((bits >> 32) & 0xffff) + (bits >> 48)) +
                     2.0;  // + 4 x 0.5: each uniform is (u + 0.5) / 65536
  return (sum * (1.0 / 65536.0) - 2.0) * 1.7320508075688772;  // sqrt(3): variance 4/12 -> 1
}

// lambda_{offset + j} as an Eigen expression of n coefficients with packet access, so that sums
// over it take the same (vectorized) order as the same sums over a stored vector.
struct CurvatureOp {
  const QuadraticCurvatures* c;
  int64_t offset;
  double operator()(Eigen::Index j) const { return c->At(offset + j); }
  template <class Packet>
  Packet packetOp(Eigen::Index j) const {
    constexpr int kSize = Eigen::internal::unpacket_traits<Packet>::size;
    alignas(64) double values[kSize];
    for (int k = 0; k < kSize; ++k) values[k] = c->At(offset + j + k);
    return Eigen::internal::pload<Packet>(values);
  }
};

}  // namespace
}  // namespace commsim

namespace Eigen::internal {
template <>
struct functor_traits<commsim::CurvatureOp> {
  enum { Cost = 4, PacketAccess = true, IsRepeatable = true };
};
}  // namespace Eigen::internal

namespace commsim {
namespace {

auto Curvatures(const QuadraticCurvatures& c, int64_t offset, int64_t n) {
  return Eigen::VectorXd::NullaryExpr(n, CurvatureOp{&c, offset});
}

}  // namespace

void QuadraticCurvatures::Init(const SyntheticQuadraticConfig& config, int64_t dim) {
  const double ratio = config.lambda_max / config.lambda_min;
  const auto exact = [&](int64_t j) {
    return dim == 1 ? config.lambda_min
                    : config.lambda_min *
                          std::pow(ratio, static_cast<double>(j) / static_cast<double>(dim - 1));
  };
  factor.resize(static_cast<size_t>(kBlock));
  for (int64_t k = 0; k < kBlock; ++k) {
    factor[static_cast<size_t>(k)] =
        dim == 1 ? 1.0 : std::pow(ratio, static_cast<double>(k) / static_cast<double>(dim - 1));
  }
  anchor.resize(static_cast<size_t>((dim + kBlock - 1) / kBlock));
  for (size_t b = 0; b < anchor.size(); ++b) anchor[b] = exact(static_cast<int64_t>(b) * kBlock);
  fix.resize(static_cast<size_t>(dim));
  full.resize(0);
  for (int64_t j = 0; j < dim; ++j) {
    const double approx =
        anchor[static_cast<size_t>(j / kBlock)] * factor[static_cast<size_t>(j % kBlock)];
    const int64_t delta = std::bit_cast<int64_t>(exact(j)) - std::bit_cast<int64_t>(approx);
    if (delta < INT8_MIN || delta > INT8_MAX) {  // store them all
      fix = {};
      anchor = {};
      full.resize(dim);
      for (int64_t i = 0; i < dim; ++i) full[i] = exact(i);
      return;
    }
    fix[static_cast<size_t>(j)] = static_cast<int8_t>(delta);
  }
}

void QuadraticCurvatures::Fill(int64_t begin, int64_t n, double* out) const {
  if (full.size() > 0) {
    std::copy(full.data() + begin, full.data() + begin + n, out);
    return;
  }
  for (int64_t k0 = 0; k0 < n; k0 += kBlock) {
    quadratic_kernels::AnchoredValues(anchor[static_cast<size_t>((begin + k0) / kBlock)],
                                      factor.data(), fix.data() + begin + k0,
                                      std::min(kBlock, n - k0), out + k0);
  }
}

void SyntheticQuadraticConfig::Describe(ParamVisitor& v) {
  v.Int("dim", dim, Range::Closed(0, kMaxModelDim),
        "dimension d (0 = the profile's parameter count, or 1000 without a profile)");
  v.Real("lambda_min", lambda_min, Range::Positive(), "smallest curvature (first coordinate)");
  v.Real("lambda_max", lambda_max, Range::Positive(), "largest curvature (log-spaced up to it)");
  v.Real("heterogeneity", heterogeneity, Range::NonNegative(),
         "spread of the workers' optima c_i around their mean");
  v.Real("noise", noise, Range::NonNegative(),
         "stochastic-gradient noise per coordinate at batch 1 (scaled by 1/sqrt(batch))");
  v.Int("samples_per_worker", samples_per_worker, Range::AtLeast(1),
        "nominal shard size: a batch at least this large is a full, noise-free gradient");
  v.Real("flops_per_sample", flops_per_sample, Range::NonNegative(),
         "FLOPs per sample reported to the compute-time model (0 = 3 dim, or the profile's)");
  v.Text("profile", profile, {},
         "time the run like this network's layers (commsim list profiles), e.g. resnet18; "
         "\"\" = none");
}

void SyntheticQuadraticConfig::Validate(ParamProblems& problems) const {
  if (lambda_max < lambda_min) problems.Add("lambda_max", "must be >= lambda_min");
  if (profile.empty()) return;
  const LayerProfile* p = FindLayerProfile(profile);
  if (p == nullptr) {
    problems.Add("profile", fmt::format("unknown profile \"{}\", expected one of: {}", profile,
                                        fmt::join(LayerProfileNames(), ", ")));
    return;
  }
  if (dim != 0 && dim != p->TotalParams()) {
    problems.Add("dim", fmt::format("is {} but profile \"{}\" has {} parameters; leave dim out "
                                    "or set it to {}",
                                    dim, profile, p->TotalParams(), p->TotalParams()));
  }
  if (flops_per_sample > 0.0) {
    problems.Add(
        "flops_per_sample",
        fmt::format("comes from profile \"{}\" (forward + backward); leave it out", profile));
  }
}

namespace {

// The profile named in `config` (nullptr when none); Validate() has reported unknown names.
const LayerProfile* ProfileOf(const SyntheticQuadraticConfig& config) {
  if (config.profile.empty()) return nullptr;
  const LayerProfile* p = FindLayerProfile(config.profile);
  COMMSIM_CHECK(p != nullptr, "profile {}", config.profile);
  return p;
}

int64_t DimOf(const SyntheticQuadraticConfig& config, const LayerProfile* profile) {
  if (config.dim != 0) return config.dim;
  return profile != nullptr ? profile->TotalParams() : SyntheticQuadraticConfig::kDefaultDim;
}

}  // namespace

SyntheticQuadratic::SyntheticQuadratic(const SyntheticQuadraticConfig& config, int workers,
                                       uint64_t seed)
    : config_(config),
      profile_(ProfileOf(config)),
      dim_(DimOf(config, profile_)),
      workers_(workers) {
  COMMSIM_CHECK(workers >= 1, "workers {}", workers);
  COMMSIM_CHECK(profile_ == nullptr || profile_->TotalParams() == dim_, "dim {}", dim_);
  const int64_t d = dim_;
  lambda_.Init(config, d);
  Rng rng(seed, 0, "synthetic_quadratic");
  center_.resize(d);
  shared_.resize(d);
  for (int64_t j = 0; j < d; ++j) center_[j] = rng.Normal();
  for (int64_t j = 0; j < d; ++j) shared_[j] = rng.Normal();
  for (int i = 0; i < workers; ++i) shift_.push_back(d * i / workers);
  InitOptimum();
}

// x* = c + h * mean_i shift_i(r); F(x*) = mean_i 1/2 sum_j lambda_j (x*_j - c_ij)^2. The mean of
// the shifted r is built in x*'s own storage (a temporary d-vector freed here would stay resident:
// commsim keeps freed memory, and small allocations split it so no later vector fits in it).
void SyntheticQuadratic::InitOptimum() {
  const int64_t d = dim_;
  Eigen::VectorXd& mean_shared = optimum_.x;
  mean_shared.setZero(d);
  for (int i = 0; i < workers_; ++i) {
    const int64_t o = shift_[static_cast<size_t>(i)];
    mean_shared.head(d - o) += shared_.tail(d - o);
    mean_shared.tail(o) += shared_.head(o);
  }
  mean_shared /= workers_;
  double f_star = 0.0;
  for (int i = 0; i < workers_; ++i) {
    const int64_t o = shift_[static_cast<size_t>(i)];
    // x*_j - c_ij = h (mean_shared_j - r_{(j+o) mod d})
    f_star += (Curvatures(lambda_, 0, d - o).array() *
               (mean_shared.head(d - o) - shared_.tail(d - o)).array().square())
                  .sum();
    f_star += (Curvatures(lambda_, d - o, o).array() *
               (mean_shared.tail(o) - shared_.head(o)).array().square())
                  .sum();
  }
  optimum_.loss = 0.5 * config_.heterogeneity * config_.heterogeneity * f_star / workers_;
  optimum_.x = center_ + config_.heterogeneity * mean_shared;  // elementwise, in place
}

double SyntheticQuadratic::center(int worker, int64_t j) const {
  const int64_t k = (j + shift_[static_cast<size_t>(worker)]) % dim_;
  return center_[j] + config_.heterogeneity * shared_[k];
}

double SyntheticQuadratic::flops_per_sample() const {
  if (profile_ != nullptr) {
    return profile_->ForwardFlopsPerSample() + profile_->BackwardFlopsPerSample();
  }
  return config_.flops_per_sample > 0.0 ? config_.flops_per_sample
                                        : 3.0 * static_cast<double>(dim_);
}

SyntheticQuadratic::Pass SyntheticQuadratic::Begin(int worker, const double* x, const float* x32,
                                                   int64_t batch, Rng& rng) const {
  COMMSIM_CHECK(worker >= 0 && worker < workers_, "worker {}", worker);
  COMMSIM_CHECK((x == nullptr) != (x32 == nullptr), "one point");
  const bool noisy = config_.noise > 0.0 && batch > 0 && batch < config_.samples_per_worker;
  return Pass{.x = x,
              .x32 = x32,
              .shift = shift_[static_cast<size_t>(worker)],
              .noisy = noisy,
              .sigma = noisy ? config_.noise / std::sqrt(static_cast<double>(batch)) : 0.0,
              .rng = &rng};
}

// g_j = lambda_j (x_j - c_wj) (+ noise) for j in [begin, end), into out[j - begin]: one pass, then
// the chunk's noise draws (in index order, so chunk after chunk draws as one pass would). kLoss:
// adds lambda_j (x_j - c_wj)^2 to p.loss in index order; else ORs NonFiniteFlag(g_j) into p.bad.
// The chunk is read in at most two runs so that the shared vector is read contiguously: j < d - o
// reads r[j + o], the rest r[j - (d - o)]. A float point is widened to double first: the same
// arithmetic on the same values as at the double point double(x32[j]).
template <bool kLoss, class Point>
void SyntheticQuadratic::FillChunk(Pass& p, int64_t begin, int64_t end, const double* lam,
                                   double* out) const {
  const int64_t d = dim_;
  const int64_t o = p.shift;
  const double h = config_.heterogeneity;
  const double* c = center_.data();
  const Point* xs = PointOf<Point>(p);
  const bool noisy = p.noisy;
  double loss = p.loss;
  uint64_t bad = p.bad;
  const auto run = [&](int64_t from, int64_t to, const double* r) {
    if constexpr (!kLoss) {  // the vectorised kernel (quadratic_kernels.h)
      const uint64_t flags = quadratic_kernels::Gradient(
          xs + from, c + from, r + from, lam + (from - begin), h, to - from, out + (from - begin));
      if (!noisy) bad |= flags;
      return;
    }
    for (int64_t j = from; j < to; ++j) {  // the loss sums in index order: scalar
      const double diff = static_cast<double>(xs[j]) - c[j] - h * r[j];
      const double lam_j = lam[j - begin];
      out[j - begin] = lam_j * diff;
      loss += lam_j * diff * diff;
    }
  };
  const int64_t split = std::clamp(d - o, begin, end);
  run(begin, split, shared_.data() + o);
  run(split, end, shared_.data() - (d - o));
  if (noisy) {
    for (int64_t k = 0; k < end - begin; ++k) {
      out[k] += p.sigma * FastNormal(*p.rng);
      if constexpr (!kLoss) bad |= NonFiniteFlag(out[k]);
    }
  }
  p.loss = loss;
  p.bad = bad;
}

// StreamFiniteGradients (synthetic_quadratic_streams.cc) uses these two.
template void SyntheticQuadratic::FillChunk<false, double>(Pass&, int64_t, int64_t, const double*,
                                                           double*) const;
template void SyntheticQuadratic::FillChunk<false, float>(Pass&, int64_t, int64_t, const double*,
                                                          double*) const;

template <bool kLoss>
SyntheticQuadratic::Pass SyntheticQuadratic::FillAll(int worker,
                                                     const Eigen::Ref<const Eigen::VectorXd>& x,
                                                     int64_t batch, Rng& rng,
                                                     Eigen::Ref<Eigen::VectorXd> grad) const {
  COMMSIM_CHECK(grad.size() == dim_ && x.size() == dim_, "dimension mismatch");
  Pass p = Begin(worker, x.data(), nullptr, batch, rng);
  std::array<double, kChunk> lam;
  for (int64_t begin = 0; begin < dim_; begin += kChunk) {
    const int64_t end = std::min(dim_, begin + kChunk);
    lambda_.Fill(begin, end - begin, lam.data());
    FillChunk<kLoss, double>(p, begin, end, lam.data(), grad.data() + begin);
  }
  return p;
}

double SyntheticQuadratic::Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                                    int64_t batch, Rng& rng,
                                    Eigen::Ref<Eigen::VectorXd> grad) const {
  return 0.5 * FillAll<true>(worker, x, batch, rng, grad).loss;
}

bool SyntheticQuadratic::FiniteGradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                                        int64_t batch, Rng& rng,
                                        Eigen::Ref<Eigen::VectorXd> grad) const {
  return (FillAll<false>(worker, x, batch, rng, grad).bad >> 63) == 0;
}

double SyntheticQuadratic::Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return 0.5 * (Curvatures(lambda_, 0, dim_).array() * (x - optimum_.x).array().square()).sum() +
         optimum_.loss;
}

Eigen::VectorXd SyntheticQuadratic::lambda() const { return Curvatures(lambda_, 0, dim_); }

}  // namespace commsim
