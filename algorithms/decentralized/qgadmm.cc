#include "algorithms/decentralized/qgadmm.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "base/check.h"
#include "base/error.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/registry.h"
#include "models/eigen_blocking.h"
#include "models/objective.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kSolvers = {"closed_form", "sgd"};

// The fp32 range at least max |v_j|.
float RangeOf(const Eigen::Ref<const Eigen::VectorXd>& v) {
  const double r = v.size() == 0 ? 0.0 : v.lpNorm<Eigen::Infinity>();
  float r32 = static_cast<float>(r);
  if (static_cast<double>(r32) < r) r32 = std::nextafter(r32, std::numeric_limits<float>::max());
  return r32;
}

}  // namespace

QgadmmConfig::QgadmmConfig() : compressor(CompressorSpec("identity")) {}

void QgadmmConfig::Describe(ParamVisitor& v) {
  v.Int("bits", bits, Range::Closed(1, 32), "bits b per coordinate of the quantized difference");
  v.Real("rho", rho, Range::Positive(), "ADMM penalty rho");
  v.Real("alpha", alpha, Range::Positive(),
         "dual step: lambda += alpha rho (theta^_p - theta^_p+1)");
  v.Text("solver", solver, kSolvers,
         "primal step: closed_form (quadratic objectives: linear regression) or sgd (local "
         "gradient steps of size step)");
  v.Int("local_steps", local_steps, Range::Closed(1, 1000), "sgd: gradient steps per primal");
  common.Describe(v);
}

void QgadmmConfig::StochasticDefaults(QgadmmConfig& config) {
  config.solver = "sgd";
  config.local_steps = 10;
  config.bits = 8;
  config.rho = 20.0;
  config.alpha = 0.01;
}

void QgadmmConfig::CheckSetup(const RunSetup& setup, const MixingMatrix& mixing) const {
  if (GreedyChain(mixing).empty()) {
    throw UserError(
        "a greedy walk from node 0 finds no path through every node of the gossip graph; set "
        "\"graph\" to ring");
  }
  if (solver != "closed_form") return;
  const Objective& f = *setup.objective;
  if (f.dim() > kQgadmmMaxClosedFormDim) {
    throw UserError(fmt::format(
        "solver closed_form solves a d x d system per node, so it takes at most {} parameters; "
        "the model has {} (use solver sgd: qsgadmm)",
        kQgadmmMaxClosedFormDim, f.dim()));
  }
  for (int w = 0; w < f.num_workers(); ++w) {
    if (const std::string why = NotQuadratic(f, w); !why.empty()) throw UserError(why);
  }
}

std::string NotQuadratic(const Objective& f, int worker) {
  const int64_t d = f.dim();
  Rng unused(1);
  Eigen::VectorXd v(d), g0(d), g1(d), g2(d);
  for (int64_t j = 0; j < d; ++j) v[j] = 1.0 + 0.5 * std::sin(static_cast<double>(j));
  f.Gradient(worker, Eigen::VectorXd::Zero(d), 0, unused, g0);
  f.Gradient(worker, v, 0, unused, g1);
  f.Gradient(worker, 2.0 * v, 0, unused, g2);
  const double miss = (g2 - g0 - 2.0 * (g1 - g0)).norm();
  if (miss <= 1e-8 * (g2.norm() + g1.norm() + g0.norm() + 1.0)) return "";
  return fmt::format(
      "solver closed_form needs a quadratic objective (linear_regression); {}'s gradient is not "
      "affine (use solver sgd)",
      f.Name());
}

std::vector<int> GreedyChain(const MixingMatrix& mixing) {
  const int n = mixing.num_nodes();
  std::vector<int> chain = {0};
  std::vector<char> seen(static_cast<size_t>(n), 0);
  seen[0] = 1;
  while (static_cast<int>(chain.size()) < n) {
    int next = -1;
    for (int j : mixing.neighbours(chain.back())) {
      if (!seen[j]) {
        next = j;
        break;
      }
    }
    if (next < 0) return {};
    seen[next] = 1;
    chain.push_back(next);
  }
  return chain;
}

Message QuantizeDifference(const Eigen::Ref<const Eigen::VectorXd>& v, int bits, Rng& rng,
                           Eigen::Ref<Eigen::VectorXd> hat) {
  const float range = RangeOf(v);
  const double r = range, top = std::ldexp(1.0, bits) - 1.0;
  const double delta = 2.0 * r / top;
  BitWriter out;
  out.Reserve(32 + bits * v.size());
  out.PutFloat(range);
  for (Eigen::Index j = 0; j < v.size(); ++j) {
    double q = 0.0;
    if (delta > 0.0) {
      const double c = std::clamp((v[j] + r) / delta, 0.0, top);
      q = std::floor(c);
      if (rng.Uniform() < c - q) q += 1.0;
    }
    out.Put(static_cast<uint64_t>(q), bits);
    hat[j] += delta * q - r;
  }
  Message m = out.Finish();
  m.elements = v.size();
  // The codec time model times it as qsgd's fixed coding: a scale, then b stochastically rounded
  // bits per value, the same work.
  m.codec = "qsgd";
  return m;
}

void DecodeDifference(const Message& message, int bits, Eigen::Ref<Eigen::VectorXd> hat) {
  BitReader in(message);
  const double r = in.GetFloat();
  const double delta = 2.0 * r / (std::ldexp(1.0, bits) - 1.0);
  for (Eigen::Index j = 0; j < hat.size(); ++j) {
    hat[j] += delta * static_cast<double>(in.Get(bits)) - r;
  }
}

QgadmmNode::QgadmmNode(const NodeRuleContext& context, int node,
                       const Eigen::Ref<const Eigen::VectorXd>& x0)
    : GossipNode(context, node, x0),
      next(x0),
      hat(Eigen::VectorXd::Zero(context.dim)),
      grad(Eigen::VectorXd::Zero(context.dim)),
      replica{Eigen::VectorXd::Zero(context.dim), Eigen::VectorXd::Zero(context.dim)},
      lambda{Eigen::VectorXd::Zero(context.dim), Eigen::VectorXd::Zero(context.dim)} {}

QgadmmRule::QgadmmRule(const QgadmmConfig& config, const NodeRuleContext& context,
                       const Eigen::Ref<const Eigen::VectorXd>& x0)
    : NodesRule(context, x0), config_(config), chain_(GreedyChain(*context.mixing)) {
  FixEigenBlocking();  // the products give the same bits on every machine
  const int n = num_nodes();
  if (chain_.empty()) {
    throw UserError(
        "q-gadmm: a greedy walk from node 0 finds no path through every node of the gossip "
        "graph; set \"graph\" to ring");
  }
  COMMSIM_CHECK(context.objective != nullptr, "q-gadmm needs an objective");
  position_.assign(static_cast<size_t>(n), 0);
  for (int p = 0; p < n; ++p) position_[chain_[p]] = p;
  for (int p = 0; p < n; ++p) {
    QgadmmNode& s = nodes_[chain_[p]];
    if (p > 0) s.slot[0] = context.mixing->SlotOf(chain_[p], chain_[p - 1]);
    if (p + 1 < n) s.slot[1] = context.mixing->SlotOf(chain_[p], chain_[p + 1]);
    s.scale = static_cast<double>(context.objective->shard_size(chain_[p]));
    if (config.solver != "closed_form") continue;
    if (context.dim > kQgadmmMaxClosedFormDim) {
      throw UserError(fmt::format("q-gadmm: closed_form takes at most {} parameters, not {}",
                                  kQgadmmMaxClosedFormDim, context.dim));
    }
    if (const std::string why = NotQuadratic(*context.objective, chain_[p]); !why.empty()) {
      throw UserError("q-gadmm: " + why);
    }
    Factor(s, chain_[p]);
  }
}

// H and b of grad f~(theta) = H theta - b, probed at 0 and the unit vectors, checked at a point.
void QgadmmRule::Factor(QgadmmNode& s, int node) {
  const Objective& f = *context_.objective;
  const int64_t d = context_.dim;
  Rng unused(context_.seed, node, "qgadmm probe");
  Eigen::VectorXd g0(d), g(d), e = Eigen::VectorXd::Zero(d);
  f.Gradient(node, e, 0, unused, g0);
  Eigen::MatrixXd h(d, d);
  for (int64_t j = 0; j < d; ++j) {
    e[j] = 1.0;
    f.Gradient(node, e, 0, unused, g);
    h.col(j) = s.scale * (g - g0);
    e[j] = 0.0;
  }
  s.b = -s.scale * g0;
  for (int64_t j = 0; j < d; ++j) e[j] = 1.0 + 0.5 * std::sin(static_cast<double>(j));
  f.Gradient(node, e, 0, unused, g);
  const double miss = (s.scale * g - (h * e - s.b)).norm();
  if (!(miss <= 1e-8 * (s.scale * g.norm() + 1.0))) {
    throw UserError(fmt::format(
        "q-gadmm: solver closed_form needs a quadratic objective (linear_regression); {}'s "
        "gradient is not affine (use solver sgd)",
        f.Name()));
  }
  const int neighbours = (s.slot[0] >= 0 ? 1 : 0) + (s.slot[1] >= 0 ? 1 : 0);
  h.diagonal().array() += neighbours * config_.rho;
  s.solve.compute(h);
}

void QgadmmRule::Primal(QgadmmNode& s, int node, int64_t t) {
  const double rho = config_.rho;
  Eigen::VectorXd& rhs = s.grad;  // scratch: the linear terms
  rhs = s.lambda[1] - s.lambda[0];
  int neighbours = 0;
  for (int k = 0; k < 2; ++k) {
    if (s.slot[k] < 0) continue;
    rhs.noalias() -= rho * s.replica[k];
    ++neighbours;
  }
  if (config_.solver == "closed_form") {
    s.next = s.solve.solve(s.b - rhs);
    return;
  }
  // sgd: grad of f~ + <lambda_p - lambda_{p-1}, .> + rho/2 sum ||. - theta^_q||^2.
  const double gamma = context_.step.At(t);
  Eigen::VectorXd g(context_.dim);
  s.next = s.x;
  for (int64_t k = 0; k < config_.local_steps; ++k) {
    context_.objective->Gradient(node, s.next, context_.batch, s.batch_rng, g);
    s.next -= gamma * (s.scale * g + rhs + neighbours * rho * s.next);
  }
}

Outbox QgadmmRule::StepIn(int node, int64_t t, int exchange, int /*slot*/) {
  if (compute_exchange(node) != exchange) return Outbox{};
  QgadmmNode& s = nodes_[node];
  Primal(s, node, t);
  const Message m =
      QuantizeDifference(s.next - s.hat, static_cast<int>(config_.bits), s.compress_rng, s.hat);
  Outbox out;
  out.each.resize(context_.mixing->neighbours(node).size());
  for (int side : s.slot) {
    if (side >= 0) out.each[side] = m;
  }
  return out;
}

void QgadmmRule::DeliverIn(int node, int /*exchange*/, int slot, const Message& message) {
  QgadmmNode& s = nodes_[node];
  const int side = slot == s.slot[0] ? 0 : 1;
  COMMSIM_CHECK(slot == s.slot[side], "slot {} is off node {}'s chain", slot, node);
  DecodeDifference(message, static_cast<int>(config_.bits), s.replica[side]);
}

void QgadmmRule::CombineIn(int node, int64_t /*t*/, int exchange) {
  QgadmmNode& s = nodes_[node];
  if (compute_exchange(node) == exchange) s.x = s.next;
  if (exchange == 0) return;
  const double step = config_.alpha * config_.rho;
  if (s.slot[0] >= 0) s.lambda[0] += step * (s.replica[0] - s.hat);
  if (s.slot[1] >= 0) s.lambda[1] += step * (s.hat - s.replica[1]);
}

}  // namespace commsim
