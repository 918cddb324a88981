#include "algorithms/decentralized/tune.h"

#include <cmath>
#include <limits>

#include "algorithms/decentralized/gossip.h"
#include "base/check.h"
#include "base/rng.h"

namespace commsim {
namespace {

double Spread(const NodeRule& rule, const Eigen::VectorXd& mean) {
  double sum = 0;
  for (int i = 0; i < rule.num_nodes(); ++i) sum += (rule.x(i) - mean).squaredNorm();
  return sum;
}

}  // namespace

std::vector<double> DefaultConsensusGrid() {
  return {1.0,  0.7,  0.5,  0.4,  0.3,   0.2,  0.15,  0.1,   0.07,
          0.05, 0.04, 0.03, 0.02, 0.015, 0.01, 0.007, 0.005, 0.002};
}

ConsensusTuning TuneConsensus(const MixingMatrix& mixing, const Compressor& compressor,
                              const TuneOptions& options) {
  COMMSIM_CHECK(options.dim >= 1 && options.rounds >= 1, "bad tuning options");
  ConsensusTuning out;
  out.grid = options.grid.empty() ? DefaultConsensusGrid() : options.grid;
  const int n = mixing.num_nodes();
  std::vector<Eigen::VectorXd> start(n, Eigen::VectorXd(options.dim));
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(options.dim);
  for (int i = 0; i < n; ++i) {
    Rng rng(options.seed, i, "tune");
    for (Eigen::Index j = 0; j < options.dim; ++j) start[i][j] = rng.Normal();
    mean += start[i];
  }
  mean /= n;

  NodeRuleContext ctx{
      .mixing = &mixing, .compressor = &compressor, .dim = options.dim, .seed = options.seed};
  ChocoGossipConfig config;
  config.rescale = options.rescale;
  for (double gamma_c : out.grid) {
    COMMSIM_CHECK(gamma_c > 0.0 && gamma_c <= 1.0, "gamma_c {} outside (0, 1]", gamma_c);
    config.gamma_c = gamma_c;
    ChocoGossipRule rule(config, ctx, Eigen::VectorXd::Zero(options.dim));
    for (int i = 0; i < n; ++i) rule.SetX(i, start[i]);
    const double spread0 = Spread(rule, mean);
    std::vector<double> curve = {1.0};
    int64_t bits = 0;
    for (int64_t r = 0; r < options.rounds; ++r) {
      bits += RunSynchronousRound(rule, mixing, r);
      const double e = Spread(rule, mean) / spread0;
      if (!std::isfinite(e) || e > 1e6) {
        curve.push_back(std::numeric_limits<double>::infinity());
        break;
      }
      curve.push_back(e);
    }
    out.final_error.push_back(curve.size() == static_cast<size_t>(options.rounds) + 1
                                  ? curve.back()
                                  : std::numeric_limits<double>::infinity());
    out.curves.push_back(std::move(curve));
    out.bits.push_back(bits);
  }
  // Lowest final error; among grid values that reach the numerical floor, the fastest to get
  // there (their final errors differ only by rounding noise).
  auto rounds_to_floor = [&](size_t g) {
    const std::vector<double>& c = out.curves[g];
    for (size_t r = 0; r < c.size(); ++r) {
      if (c[r] <= kConsensusFloor) return r;
    }
    return std::numeric_limits<size_t>::max();
  };
  for (size_t g = 1; g < out.grid.size(); ++g) {
    const size_t rg = rounds_to_floor(g), rb = rounds_to_floor(out.best);
    if (rg != rb ? rg < rb : out.final_error[g] < out.final_error[out.best]) out.best = g;
  }
  return out;
}

}  // namespace commsim
