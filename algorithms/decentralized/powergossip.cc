#include "algorithms/decentralized/powergossip.h"

#include <algorithm>
#include <cmath>

#include "base/check.h"
#include "compression/registry.h"
#include "models/eigen_blocking.h"
#include "models/layer_profile.h"
#include "models/objective.h"

namespace commsim {
namespace {

GossipBlock MatrixOrVector(int64_t offset, int64_t params, int64_t rows, int64_t rank) {
  GossipBlock b{.offset = offset, .params = params};
  if (rows > 1 && params % rows == 0 && params / rows > 1) {
    b.matrix = true;
    b.rows = rows;
    b.cols = params / rows;
    b.rank = std::min({rank, b.rows, b.cols});
  }
  return b;
}

// x's block as a rows x cols matrix, column by column, zero-padded.
void LoadBlock(const Eigen::VectorXd& x, const GossipBlock& b, Eigen::MatrixXd& out) {
  out.setZero(b.rows, b.cols);
  std::copy_n(x.data() + b.offset, b.params, out.data());
}

// x's block += scale * delta (its first `params` entries, column by column).
void AddBlock(const Eigen::MatrixXd& delta, double scale, const GossipBlock& b,
              Eigen::VectorXd& x) {
  double* to = x.data() + b.offset;
  const double* from = delta.data();
  for (int64_t k = 0; k < b.params; ++k) to[k] += scale * from[k];
}

void FillNormal(Rng& rng, Eigen::MatrixXd& m) {
  for (Eigen::Index k = 0; k < m.size(); ++k) m.data()[k] = rng.Normal();
}

}  // namespace

std::vector<GossipBlock> PowerGossipBlocks(int64_t dim, int64_t rank, const LayerProfile* layers) {
  std::vector<GossipBlock> blocks;
  if (layers == nullptr || layers->TotalParams() != dim) {
    const auto cols = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(dim))));
    const int64_t rows = (dim + cols - 1) / std::max<int64_t>(cols, 1);
    GossipBlock b{.offset = 0, .params = dim};
    if (rows > 1 && cols > 1) {
      b = GossipBlock{.offset = 0,
                      .params = dim,
                      .matrix = true,
                      .rows = rows,
                      .cols = cols,
                      .rank = std::min({rank, rows, cols})};
    }
    blocks.push_back(b);
    return blocks;
  }
  int64_t offset = 0;
  for (const Layer& layer : layers->layers) {
    const std::vector<int64_t> tensors =
        layer.tensors.empty() ? std::vector<int64_t>{layer.params} : layer.tensors;
    for (size_t k = 0; k < tensors.size(); ++k) {
      blocks.push_back(MatrixOrVector(offset, tensors[k], k == 0 ? layer.out : 0, rank));
      offset += tensors[k];
    }
  }
  return blocks;
}

void OrthonormaliseColumns(Eigen::Ref<Eigen::MatrixXd> a) {
  for (Eigen::Index c = 0; c < a.cols(); ++c) {
    for (Eigen::Index p = 0; p < c; ++p) a.col(c) -= a.col(p).dot(a.col(c)) * a.col(p);
    a.col(c) /= a.col(c).norm() + 1e-8;
  }
}

PowerGossipConfig::PowerGossipConfig() : compressor(CompressorSpec("identity")) {}

void PowerGossipConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor,
              "how each low-rank factor message is sent (identity = fp32 values)");
  v.Int("rank", rank, Range::Closed(1, 1 << 20), "rank r of the projections (min(r, m, n) used)");
  v.Int("iterations", iterations, Range::Closed(1, 64),
        "half-iterations (network exchanges) per step, alternating m- and n-sized messages");
  v.Bool("warm_start", warm_start, "continue the power iteration from the last step's factors");
  v.Real("gamma_c", gamma_c, Range::Open(0, 2),
         "consensus step (1: no tuning; the paper's 8-ring runs use 1.308)");
  common.Describe(v);
}

PowerGossipNode::PowerGossipNode(const NodeRuleContext& context, int node,
                                 const Eigen::Ref<const Eigen::VectorXd>& x0)
    : GossipNode(context, node, x0),
      grad(Eigen::VectorXd::Zero(context.dim)),
      own(context.mixing->neighbours(node).size()),
      received(context.mixing->neighbours(node).size()) {}

PowerGossipRule::PowerGossipRule(const PowerGossipConfig& config, const NodeRuleContext& context,
                                 const Eigen::Ref<const Eigen::VectorXd>& x0)
    : NodesRule(context, x0),
      config_(config),
      blocks_(
          PowerGossipBlocks(context.dim, config.rank,
                            context.objective != nullptr ? context.objective->layers() : nullptr)),
      scratch_(static_cast<size_t>(context.threads)),
      buffer_(static_cast<size_t>(context.threads)) {
  FixEigenBlocking();  // the products give the same bits on every machine
  COMMSIM_CHECK(config.iterations >= 1 && config.rank >= 1, "bad PowerGossip config");
  for (const GossipBlock& b : blocks_) vector_values_ += b.matrix ? 0 : b.params;
  for (int i = 0; i < num_nodes(); ++i) InitEdges(i);
}

void PowerGossipRule::InitEdges(int node) {
  const std::vector<int>& nb = context_.mixing->neighbours(node);
  const int n = num_nodes();
  for (int j : nb) {
    const int lo = std::min(node, j), hi = std::max(node, j);
    PowerGossipEdge& e = nodes_[node].edges.emplace_back(PowerGossipEdge{
        .p = {}, .q = {}, .rng = Rng(context_.seed, lo * n + hi, "powergossip edge")});
    for (const GossipBlock& b : blocks_) {
      if (!b.matrix) continue;
      FillNormal(e.rng, e.p.emplace_back(b.rows, b.rank));
      FillNormal(e.rng, e.q.emplace_back(b.cols, b.rank));
    }
  }
}

int64_t PowerGossipRule::MessageValues(int64_t t, int exchange) const {
  int64_t values = exchange == 0 ? vector_values_ : 0;
  for (const GossipBlock& b : blocks_) {
    if (b.matrix) values += b.rank * (Odd(t, exchange) ? b.rows : b.cols);
  }
  return values;
}

Outbox PowerGossipRule::StepIn(int node, int64_t t, int exchange, int slot) {
  PowerGossipNode& s = nodes_[node];
  if (exchange == 0 && context_.objective != nullptr) {
    context_.objective->Gradient(node, s.x, context_.batch, s.batch_rng, s.grad);
  }
  const bool odd = Odd(t, exchange);
  const int64_t length = MessageValues(t, exchange);
  for (Eigen::VectorXd& v : s.own) v.resize(length);
  Eigen::MatrixXd& xm = scratch_[static_cast<size_t>(slot)];
  int64_t at = 0;
  size_t m = 0;
  for (const GossipBlock& b : blocks_) {
    if (!b.matrix) continue;
    LoadBlock(s.x, b, xm);
    const int64_t rows = odd ? b.rows : b.cols;
    for (size_t k = 0; k < s.edges.size(); ++k) {
      PowerGossipEdge& e = s.edges[k];
      Eigen::MatrixXd& factor = odd ? e.q[m] : e.p[m];
      if (!config_.warm_start) FillNormal(e.rng, factor);
      OrthonormaliseColumns(factor);
      Eigen::Map<Eigen::MatrixXd> y(s.own[k].data() + at, rows, b.rank);
      if (odd) {
        y.noalias() = xm * factor;
      } else {
        y.noalias() = xm.transpose() * factor;
      }
    }
    at += rows * b.rank;
    ++m;
  }
  Eigen::VectorXd& buffer = buffer_[static_cast<size_t>(slot)];
  Outbox out;
  for (size_t k = 0; k < s.edges.size(); ++k) {
    if (exchange == 0) {
      int64_t v = at;
      for (const GossipBlock& b : blocks_) {
        if (b.matrix) continue;
        s.own[k].segment(v, b.params) = s.x.segment(b.offset, b.params);
        v += b.params;
      }
    }
    buffer = s.own[k];
    out.each.push_back(
        context_.compressor->EncodeWithDecoded(buffer, s.compress_rng, DecodeTarget(s.own[k])));
  }
  return out;
}

void PowerGossipRule::DeliverIn(int node, int /*exchange*/, int slot, const Message& message) {
  Eigen::VectorXd& r = nodes_[node].received[slot];
  r.resize(nodes_[node].own[slot].size());  // both ends' messages have this exchange's length
  context_.compressor->Decode(message, r);
}

void PowerGossipRule::CombineIn(int node, int64_t t, int exchange) {
  PowerGossipNode& s = nodes_[node];
  const MixingMatrix& w = *context_.mixing;
  const bool odd = Odd(t, exchange);
  for (size_t k = 0; k < s.edges.size(); ++k) {
    const bool hi = node > w.neighbours(node)[k];
    const double coef = -config_.gamma_c * w.weight(node, static_cast<int>(k)) * (hi ? 1 : -1);
    const Eigen::VectorXd& yh = hi ? s.own[k] : s.received[k];
    const Eigen::VectorXd& yl = hi ? s.received[k] : s.own[k];
    int64_t at = 0;
    size_t m = 0;
    for (const GossipBlock& b : blocks_) {
      if (!b.matrix) continue;
      const int64_t rows = odd ? b.rows : b.cols;
      PowerGossipEdge& e = s.edges[k];
      (odd ? e.p[m] : e.q[m]) = Eigen::Map<const Eigen::MatrixXd>(yh.data() + at, rows, b.rank) -
                                Eigen::Map<const Eigen::MatrixXd>(yl.data() + at, rows, b.rank);
      s.delta.noalias() = e.p[m] * e.q[m].transpose();
      AddBlock(s.delta, coef, b, s.x);
      at += rows * b.rank;
      ++m;
    }
    if (exchange != 0) continue;
    for (const GossipBlock& b : blocks_) {  // the vectors: plain gossip at rate 1
      if (b.matrix) continue;
      s.x.segment(b.offset, b.params) +=
          w.weight(node, static_cast<int>(k)) *
          (s.received[k].segment(at, b.params) - s.own[k].segment(at, b.params));
      at += b.params;
    }
  }
  if (exchange + 1 < exchanges()) return;
  const double gamma = context_.step.At(t);
  if (context_.objective != nullptr) s.x.noalias() -= gamma * s.grad;
  if (context_.prox_l1 > 0.0) SoftThreshold(gamma * context_.prox_l1, s.x);
}

}  // namespace commsim
