#include "algorithms/collective/powersgd.h"

#include <array>
#include <cmath>
#include <string_view>

#include "models/objective.h"

namespace commsim {
namespace {

using MatrixMap = Eigen::Map<Eigen::MatrixXd>;
using ConstMatrixMap = Eigen::Map<const Eigen::MatrixXd>;
constexpr std::array<std::string_view, 2> kReshapes = {"square", "out_by_rest"};

}  // namespace

void PowerSgdConfig::Describe(ParamVisitor& v) {
  common.Describe(v);
  v.Int("rank", rank, Range::Closed(1, 1 << 16), "rank r of the low-rank approximation");
  v.Bool("warm_start", warm_start, "start each round's power iteration from the last Q");
  v.Text("reshape", reshape, kReshapes,
         "square: a near-square matrix per layer; out_by_rest: each weight as output channels x "
         "the rest, biases and norms uncompressed (the paper's)");
}

void PowerSgdRule::InitRule(const LayerProfile* layers, uint64_t seed) {
  layout_ = MakePowerSgdLayout(x_.size(), rank_, layers, reshape_);
  rng_ = Rng(seed, 0, "powersgd");
  p_.resize(layout_.p_length);
  q_.resize(layout_.q_length);
  m_.assign(workers_, Eigen::VectorXd::Zero(layout_.padded_size));
  DrawQ();
}

std::vector<CollectivePhase> PowerSgdRule::Phases(int64_t dim, const LayerProfile* layers) const {
  const PowerSgdLayout layout = MakePowerSgdLayout(dim, rank_, layers, reshape_);
  const std::array<double, 3> flops = PowerSgdFlops(layout, rank_);
  int64_t matrices = 0;
  for (const PowerSgdBlock& b : layout.blocks) matrices += b.matrix ? 1 : 0;
  return {{.kind = PhaseKind::kAllReduce,
           .length = layout.p_length,
           .flops_before = flops[0],
           .calls_before = matrices},
          {.kind = PhaseKind::kAllReduce,
           .length = layout.q_length,
           .flops_before = flops[1],
           .flops_after = flops[2],
           .calls_before = matrices,
           .calls_after = matrices}};
}

void PowerSgdRule::DrawQ() {
  for (Eigen::Index j = 0; j < q_.size(); ++j) q_[j] = rng_.Normal();
}

void PowerSgdRule::Input(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad,
                         double /*step*/, Eigen::Ref<Eigen::VectorXd> out) {
  for (const PowerSgdBlock& b : layout_.blocks) {
    if (!b.matrix) {
      if (phase == 0) out.segment(b.p_offset, b.params) = grad.segment(b.offset, b.params);
      continue;
    }
    MatrixMap m(m_[w].data() + b.padded_offset, b.rows, b.cols);
    if (phase == 0) {
      m_[w].segment(b.padded_offset, b.params) += grad.segment(b.offset, b.params);
      const ConstMatrixMap q(q_.data() + b.q_offset, b.cols, rank_);
      MatrixMap(out.data() + b.p_offset, b.rows, rank_).noalias() = m * q;
    } else {
      const ConstMatrixMap p(p_.data() + b.p_offset, b.rows, rank_);
      MatrixMap(out.data() + b.q_offset, b.cols, rank_).noalias() = m.transpose() * p;
    }
  }
}

// Every worker receives the same sums (collective_rule.h): the first to finish a phase sets the
// shared mean for all; each worker then updates its own error memory.
void PowerSgdRule::AllReduced(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& sum) {
  const double inv_n = 1.0 / static_cast<double>(workers_);
  if (phase == 0) {
    if (!have_p_) {
      p_ = sum * inv_n;
      OrthogonalizeP();
      have_p_ = true;
    }
    return;
  }
  if (!have_q_) {
    q_ = sum * inv_n;
    have_q_ = true;
  }
  UpdateError(w);
}

void PowerSgdRule::OrthogonalizeP() {
  for (const PowerSgdBlock& b : layout_.blocks) {
    if (!b.matrix) continue;
    MatrixMap p(p_.data() + b.p_offset, b.rows, rank_);
    for (int c = 0; c < rank_; ++c) {
      for (int j = 0; j < c; ++j) p.col(c) -= p.col(j).dot(p.col(c)) * p.col(j);
      const double norm = p.col(c).norm();
      if (norm > 0) {
        p.col(c) /= norm;
      } else {
        p.col(c).setZero();
      }
    }
  }
}

void PowerSgdRule::UpdateError(int w) {
  for (const PowerSgdBlock& b : layout_.blocks) {
    if (!b.matrix) continue;
    MatrixMap m(m_[w].data() + b.padded_offset, b.rows, b.cols);
    const ConstMatrixMap p(p_.data() + b.p_offset, b.rows, rank_);
    const ConstMatrixMap q(q_.data() + b.q_offset, b.cols, rank_);
    m.noalias() -= p * q.transpose();
  }
}

void PowerSgdRule::EndRound(double step) {
  for (const PowerSgdBlock& b : layout_.blocks) {
    if (!b.matrix) {
      x_.segment(b.offset, b.params) -= step * p_.segment(b.p_offset, b.params);  // the mean
      continue;
    }
    const ConstMatrixMap p(p_.data() + b.p_offset, b.rows, rank_);
    const ConstMatrixMap q(q_.data() + b.q_offset, b.cols, rank_);
    // The first `params` entries of P Q^T, column by column, are the block's update.
    for (int64_t c = 0, done = 0; done < b.params; ++c) {
      const int64_t len = std::min<int64_t>(b.rows, b.params - done);
      x_.segment(b.offset + done, len).noalias() -= step * (p.topRows(len) * q.row(c).transpose());
      done += len;
    }
  }
  objective_->Prox(step, x_);
  have_p_ = have_q_ = false;
  if (!warm_start_) DrawQ();
}

void PowerSgdRule::Extra(std::map<std::string, double>& out) const {
  double sum = 0;
  for (const Eigen::VectorXd& m : m_) sum += m.squaredNorm();
  out["memory_sq"] = sum / static_cast<double>(m_.size());
}

}  // namespace commsim
