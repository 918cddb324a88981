#include "models/synthetic_quadratic.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "models/dataset.h"
#include "sim/check.h"
#include "sim/finite.h"

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

}  // namespace

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
    problems.Add("flops_per_sample",
                 fmt::format("comes from profile \"{}\" (forward + backward); leave it out",
                             profile));
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
  lambda_.resize(d);
  const double ratio = config.lambda_max / config.lambda_min;
  for (int64_t j = 0; j < d; ++j) {
    lambda_[j] = d == 1 ? config.lambda_min
                        : config.lambda_min *
                              std::pow(ratio, static_cast<double>(j) / static_cast<double>(d - 1));
  }
  Rng rng(seed, 0, "synthetic_quadratic");
  center_.resize(d);
  shared_.resize(d);
  for (int64_t j = 0; j < d; ++j) center_[j] = rng.Normal();
  for (int64_t j = 0; j < d; ++j) shared_[j] = rng.Normal();
  for (int i = 0; i < workers; ++i) shift_.push_back(d * i / workers);
  // x* = c + h * mean_i shift_i(r); F(x*) = mean_i 1/2 sum_j lambda_j (x*_j - c_ij)^2.
  Eigen::VectorXd mean_shared = Eigen::VectorXd::Zero(d);
  for (int i = 0; i < workers; ++i) {
    const int64_t o = shift_[static_cast<size_t>(i)];
    mean_shared.head(d - o) += shared_.tail(d - o);
    mean_shared.tail(o) += shared_.head(o);
  }
  mean_shared /= workers;
  optimum_.x = center_ + config.heterogeneity * mean_shared;
  double f_star = 0.0;
  for (int i = 0; i < workers; ++i) {
    const int64_t o = shift_[static_cast<size_t>(i)];
    // x*_j - c_ij = h (mean_shared_j - r_{(j+o) mod d})
    f_star += (lambda_.head(d - o).array() *
               (mean_shared.head(d - o) - shared_.tail(d - o)).array().square())
                  .sum();
    f_star +=
        (lambda_.tail(o).array() * (mean_shared.tail(o) - shared_.head(o)).array().square()).sum();
  }
  optimum_.loss = 0.5 * config.heterogeneity * config.heterogeneity * f_star / workers;
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

// g = lambda (x - c_w) (+ noise) in one pass (two with noise). kLoss: returns 1/2 sum_j lambda_j
// (x_j - c_wj)^2, summed in index order; else returns 0 and ORs NonFiniteFlag(g_j) into *flags.
template <bool kLoss>
double SyntheticQuadratic::Fill(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                                int64_t batch, Rng& rng, Eigen::Ref<Eigen::VectorXd> grad,
                                uint64_t* flags) const {
  COMMSIM_CHECK(worker >= 0 && worker < workers_, "worker {}", worker);
  const int64_t d = dim_;
  COMMSIM_CHECK(x.size() == d && grad.size() == d, "dimension mismatch");
  const int64_t o = shift_[static_cast<size_t>(worker)];
  const double h = config_.heterogeneity;
  const bool noisy = config_.noise > 0.0 && batch > 0 && batch < config_.samples_per_worker;
  const double sigma = noisy ? config_.noise / std::sqrt(static_cast<double>(batch)) : 0.0;
  const double* lam = lambda_.data();
  const double* c = center_.data();
  const double* xs = x.data();
  double* g = grad.data();
  double loss = 0.0;
  uint64_t bad = 0;
  // Two runs so that the shared vector is read contiguously: j < d - o reads r[j + o].
  const double* r_parts[2] = {shared_.data() + o, shared_.data() - (d - o)};
  const int64_t bounds[3] = {0, d - o, d};
  for (int part = 0; part < 2; ++part) {
    const double* r = r_parts[part];
    for (int64_t j = bounds[part]; j < bounds[part + 1]; ++j) {
      const double diff = xs[j] - c[j] - h * r[j];
      g[j] = lam[j] * diff;
      if constexpr (kLoss) {
        loss += lam[j] * diff * diff;
      } else if (!noisy) {
        bad |= NonFiniteFlag(g[j]);
      }
    }
  }
  if (noisy) {
    for (int64_t j = 0; j < d; ++j) {
      g[j] += sigma * FastNormal(rng);
      if constexpr (!kLoss) bad |= NonFiniteFlag(g[j]);
    }
  }
  if constexpr (!kLoss) *flags |= bad;
  return 0.5 * loss;
}

double SyntheticQuadratic::Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                                    int64_t batch, Rng& rng,
                                    Eigen::Ref<Eigen::VectorXd> grad) const {
  return Fill<true>(worker, x, batch, rng, grad, nullptr);
}

bool SyntheticQuadratic::FiniteGradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                                        int64_t batch, Rng& rng,
                                        Eigen::Ref<Eigen::VectorXd> grad) const {
  uint64_t flags = 0;
  Fill<false>(worker, x, batch, rng, grad, &flags);
  return (flags >> 63) == 0;
}

double SyntheticQuadratic::Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return 0.5 * (lambda_.array() * (x - optimum_.x).array().square()).sum() + optimum_.loss;
}

}  // namespace commsim
