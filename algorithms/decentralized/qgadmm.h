// qgadmm and qsgadmm: Q-GADMM and Q-SGADMM (Elgabli, Park, Bedi, Bennis, Aggarwal 2020): group
// ADMM on a chain whose messages are stochastically quantized model differences.
//
// Chain: a path through every node found on the gossip graph by a greedy walk from node 0 (always
// the smallest unvisited neighbour; a ring gives 0, 1, ..., n-1); position p's neighbours are
// positions p - 1 and p + 1. Heads are the even positions (the paper's odd workers 1, 3, ...),
// tails the odd ones. Problem: min sum_w f~_w(theta_w) s.t. theta_p = theta_{p+1}, with
// f~_w = m_w f_w (m_w: w's samples; f_w is the mean over them), the sum of its samples' losses as
// in the paper, so that the sum has the centralised optimum and rho means what it does there.
// Node p keeps theta_p (its model x), theta^_p (its public copy), replicas of its neighbours'
// theta^ and the duals lambda_{p-1} (left edge) and lambda_p (right edge), all starting at 0.
// A round is two exchanges; heads compute and send in exchange 0, tails in exchange 1:
//   primal   theta_p = argmin f~_p(theta) - <lambda_{p-1}, theta> + <lambda_p, theta>
//                      + rho/2 sum over chain neighbours q of ||theta - theta^_q||^2
//            qgadmm (solver closed_form): (H_p + c_p rho I) theta = b_p + lambda_{p-1} - lambda_p
//            + rho sum_q theta^_q, with grad f~_p(theta) = H_p theta - b_p probed once from the
//            full-batch gradient (the objective must be quadratic: linear regression), c_p the
//            neighbour count; qsgadmm (solver sgd): local_steps gradient steps of size gamma_t on
//            that objective from theta_p, with the scenario's mini-batch.
//   quantize v = theta_p - theta^_p with b bits: R = ||v||_inf (sent as fp32, rounded up),
//            Delta = 2R / (2^b - 1), c_j = (v_j + R) / Delta, q_j = ceil(c_j) with probability
//            c_j - floor(c_j), else floor(c_j) (unbiased); theta^_p += Delta q - R at the sender
//            and at both chain neighbours alike.
//   duals    after exchange 1, at both ends of edge (p, p+1):
//            lambda_p += alpha rho (theta^_p - theta^_{p+1}).
// Messages: one per chain neighbour (unicast; the same encoded vector to both), 32 + b d bits;
// the codec time model charges them as `qsgd` messages of d elements (the same kind of work).
// A graph edge outside the chain carries nothing.
// Memory per node: 7 d doubles, plus the d x d factorisation for closed_form.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_QGADMM_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_QGADMM_H_

#include <Eigen/Cholesky>
#include <array>
#include <string>
#include <vector>

#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/params.h"

namespace commsim {
class Objective;
}  // namespace commsim

namespace commsim {

struct QgadmmConfig final : ConfigBase<QgadmmConfig> {
  QgadmmConfig();
  ComponentSpec compressor;  // not declared: the quantizer is the rule's own
  int64_t bits = 2;
  double rho = 24.0;
  double alpha = 1.0;
  std::string solver = "closed_form";
  int64_t local_steps = 10;
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
  // UserError when the gossip graph has no greedy chain, or closed_form meets an objective that
  // is not quadratic or has more than kQgadmmMaxClosedFormDim parameters (a d x d solve per node).
  void CheckSetup(const RunSetup& setup, const MixingMatrix& mixing) const;
  // The qsgadmm entry's defaults (the authors' DNN notebook): sgd, 10 local steps, 8 bits,
  // rho 20, alpha 0.01.
  static void StochasticDefaults(QgadmmConfig& config);
};

inline constexpr int64_t kQgadmmMaxClosedFormDim = 4096;

// "" when worker w's full-batch gradient is affine at a few points (g(2v) - g(0) = 2 (g(v) -
// g(0)) to 1e-8 relative), else why not.
std::string NotQuadratic(const Objective& f, int worker);

// The chain: a greedy walk over `mixing`'s graph from node 0; empty when it gets stuck.
std::vector<int> GreedyChain(const MixingMatrix& mixing);

// The b-bit stochastic range quantizer (above) of v, drawing from rng; adds the decoded values to
// `hat`. Payload 32 + b d bits.
Message QuantizeDifference(const Eigen::Ref<const Eigen::VectorXd>& v, int bits, Rng& rng,
                           Eigen::Ref<Eigen::VectorXd> hat);
// Adds the decoded values of a QuantizeDifference message to `hat`.
void DecodeDifference(const Message& message, int bits, Eigen::Ref<Eigen::VectorXd> hat);

struct QgadmmNode : GossipNode {
  QgadmmNode(const NodeRuleContext& context, int node, const Eigen::Ref<const Eigen::VectorXd>& x0);
  Eigen::VectorXd next, hat, grad;
  std::array<Eigen::VectorXd, 2> replica, lambda;  // [0]: left neighbour / edge, [1]: right
  std::array<int, 2> slot = {-1, -1};              // their mixing slots (-1: chain end)
  double scale = 1.0;                              // m_w
  Eigen::LDLT<Eigen::MatrixXd> solve;              // closed_form: H + c rho I
  Eigen::VectorXd b;                               // closed_form: -grad f~(0)
};

class QgadmmRule final : public NodesRule<QgadmmNode> {
 public:
  using Config = QgadmmConfig;
  // Throws UserError when no chain is found or closed_form meets a non-quadratic objective.
  QgadmmRule(const QgadmmConfig& config, const NodeRuleContext& context,
             const Eigen::Ref<const Eigen::VectorXd>& x0);
  bool sends_before_compute() const override { return false; }
  int exchanges() const override { return 2; }
  int compute_exchange(int node) const override { return position_[node] % 2; }
  Outbox StepIn(int node, int64_t t, int exchange, int slot) override;
  void DeliverIn(int node, int exchange, int slot, const Message& message) override;
  void CombineIn(int node, int64_t t, int exchange) override;
  const std::vector<int>& chain() const { return chain_; }

 private:
  void Primal(QgadmmNode& s, int node, int64_t t);
  void Factor(QgadmmNode& s, int node);
  QgadmmConfig config_;
  std::vector<int> chain_, position_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_QGADMM_H_
