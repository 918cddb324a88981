// powergossip: PowerGossip (Vogels, Karimireddy, Jaggi 2020): gossip of low-rank projections of
// the neighbours' model differences, per edge, with a power iteration warm-started across steps.
//
// Blocks: with a layer profile whose parameters add up to d, each layer's weight (its first
// tensor with Layer::out rows) is an m x n matrix (m = out, n = the rest of its shape) and every
// other tensor (biases, norms) a vector; without one, all d parameters form one matrix
// n = ceil(sqrt(d)), m = ceil(d / n), zero-padded column by column. r' = min(rank, m, n).
// Per edge e = {i, j} (lo = min, hi = max) and matrix: P_e (m x r') and Q_e (n x r'), i.i.d.
// N(0, 1) at the start, kept by both endpoints from the same stream DeriveSeed(seed, lo n + hi,
// "powergossip edge") (n = nodes), so both hold the same values bit for bit.
// A round (step t) is `iterations` = K exchanges (half-iterations) tau = t K + e + 1, e < K:
//   odd tau:  Q^ = orth(Q_e) (without warm start: Q_e redrawn from the edge stream first);
//             node i sends Y_i = X_i Q^ (m x r') to neighbour j; both set
//             P_e = Y_hi - Y_lo and X_i -= gamma_c w_ij s_i P_e Q^T (s_hi = 1, s_lo = -1),
//             i.e. X_i -= gamma_c w_ij (X_i - X_j) Q^ Q^T;
//   even tau: the mirror: P^ = orth(P_e), send X_i^T P^ (n x r'), Q_e = Y_hi - Y_lo,
//             X_i -= gamma_c w_ij s_i P^ Q_e^T;
//   orth: Gram-Schmidt on the columns, each divided by its norm + 1e-8.
// All of node i's edges use its X at the exchange's start (Jacobi). The update is antisymmetric,
// so sum_i x_i is preserved up to rounding. Each endpoint uses the decoded values of its own
// message (EncodeWithDecoded), so both see the same Y_hi - Y_lo whatever the compressor.
// Vectors go uncompressed in exchange 0: x_v += sum_j w_ij (x~_j - x~_i) (plain gossip at rate
// 1, x~ the decoded sent values).
// Learning (the paper's D-PSGD with overlap): exchange 0 computes g_i = grad_i(x_i) at the
// pre-gossip model; after the last exchange x_i -= gamma_t g_i (and the l1 proximal step). Its
// messages do not depend on the gradient (sends_before_compute).
// Messages: one per neighbour per exchange (unicast), the blocks' values in block order (then the
// vectors in exchange 0) through the compressor (default identity fp32): 32 sum r' m (odd tau) or
// 32 sum r' n (even tau) bits, plus 32 d_vec in exchange 0.
// Memory per node: deg (m + n) r' doubles per matrix for P and Q, 2 deg message buffers.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_POWERGOSSIP_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_POWERGOSSIP_H_

#include <vector>

#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/params.h"
#include "base/rng.h"

namespace commsim {

struct LayerProfile;

struct PowerGossipConfig final : ConfigBase<PowerGossipConfig> {
  PowerGossipConfig();
  ComponentSpec compressor;  // default: identity (fp32)
  int64_t rank = 1;
  int64_t iterations = 1;
  bool warm_start = true;
  double gamma_c = 1.0;
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
};

// A block of the parameter vector: a matrix (rows x cols, rank r') or a vector.
struct GossipBlock {
  int64_t offset = 0, params = 0;
  bool matrix = false;
  int64_t rows = 0, cols = 0, rank = 0;
};
// The blocks of dimension dim at `rank` (`layers` may be nullptr or not add up to dim).
std::vector<GossipBlock> PowerGossipBlocks(int64_t dim, int64_t rank, const LayerProfile* layers);

struct PowerGossipEdge {
  std::vector<Eigen::MatrixXd> p, q;  // per matrix block
  Rng rng;                            // the edge's shared stream
};

struct PowerGossipNode : GossipNode {
  PowerGossipNode(const NodeRuleContext& context, int node,
                  const Eigen::Ref<const Eigen::VectorXd>& x0);
  Eigen::VectorXd grad;
  std::vector<PowerGossipEdge> edges;          // per neighbour slot
  std::vector<Eigen::VectorXd> own, received;  // per neighbour slot: decoded message values
  Eigen::MatrixXd delta;                       // Combine's scratch
};

class PowerGossipRule final : public NodesRule<PowerGossipNode> {
 public:
  using Config = PowerGossipConfig;
  PowerGossipRule(const PowerGossipConfig& config, const NodeRuleContext& context,
                  const Eigen::Ref<const Eigen::VectorXd>& x0);
  bool sends_before_compute() const override { return true; }
  int exchanges() const override { return static_cast<int>(config_.iterations); }
  Outbox StepIn(int node, int64_t t, int exchange, int slot) override;
  void DeliverIn(int node, int exchange, int slot, const Message& message) override;
  void CombineIn(int node, int64_t t, int exchange) override;

  const std::vector<GossipBlock>& blocks() const { return blocks_; }
  // Values of one message in exchange e of round t.
  int64_t MessageValues(int64_t t, int exchange) const;

 private:
  bool Odd(int64_t t, int exchange) const { return (t * config_.iterations + exchange) % 2 == 0; }
  void InitEdges(int node);
  PowerGossipConfig config_;
  std::vector<GossipBlock> blocks_;
  int64_t vector_values_ = 0;
  std::vector<Eigen::MatrixXd> scratch_;  // per thread slot: a block as a matrix
  std::vector<Eigen::VectorXd> buffer_;   // per thread slot: a message's values
};

// Gram-Schmidt on the columns of a, each divided by (its norm + 1e-8).
void OrthonormaliseColumns(Eigen::Ref<Eigen::MatrixXd> a);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_POWERGOSSIP_H_
