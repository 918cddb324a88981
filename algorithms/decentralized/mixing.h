// MixingMatrix: the symmetric, doubly-stochastic gossip weights W of a decentralized algorithm,
// built from the nodes' neighbour lists (Topology::neighbours), plus its spectrum.
//
// Kinds (the algorithms' `mixing` field):
//   metropolis   w_ij = 1 / (1 + max(deg_i, deg_j)) per edge, w_ii = 1 - sum_j w_ij (any graph)
//   max_degree   w_ij = 1 / (1 + max_k deg_k) per edge, w_ii = 1 - deg_i w_ij (any graph)
//   ring         w_ij = w_ii = 1/3       (REQUIRES every node to have exactly 2 neighbours)
//   torus        w_ij = w_ii = 1/5       (REQUIRES every node to have exactly 4 neighbours)
//   uniform      w_ij = w_ii = 1/n       (REQUIRES the complete graph)
//   auto         metropolis, which is exactly ring 1/3, torus 1/5 and uniform 1/n on those graphs
// Contract: BuildMixing throws UserError for fewer than 2 nodes, a node with no neighbours, an
// asymmetric or self-looped neighbour list, a disconnected graph, or a kind whose degree
// requirement fails; the matrix it returns has been checked (always-on) to be symmetric,
// non-negative and doubly stochastic to 1e-12.
// Spectrum (eigenvalues by value, 1 = l_1 >= l_2 >= ... >= l_n > -1 for a connected graph with
// positive self-weights): spectral_gap = 1 - |l_2|, rho = max(|l_2|, |l_n|) (the gossip contraction
// factor: ||W x - mean x|| <= rho ||x - mean x||).
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_MIXING_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_MIXING_H_

#include <Eigen/Core>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

// The mixing kinds accepted by BuildMixing, for config choices.
std::span<const std::string_view> MixingKinds();

class MixingMatrix {
 public:
  int num_nodes() const { return static_cast<int>(neighbours_.size()); }
  // Sorted neighbours of `node` (self excluded); weight(node, k) is the weight of
  // neighbours(node)[k].
  const std::vector<int>& neighbours(int node) const { return neighbours_[node]; }
  double weight(int node, int k) const { return weights_[node][k]; }
  double self_weight(int node) const { return self_weight_[node]; }
  // Position of `node` in neighbours(of), or -1.
  int SlotOf(int of, int node) const;
  std::string_view kind() const { return kind_; }

  Eigen::MatrixXd Dense() const;

  struct Spectrum {
    double lambda2 = 0;       // second largest eigenvalue
    double lambda_n = 0;      // smallest eigenvalue
    double spectral_gap = 0;  // 1 - |lambda2|
    double rho = 0;           // max(|lambda2|, |lambda_n|)
  };
  // Eigen's self-adjoint solver on the dense matrix.
  Spectrum ComputeSpectrum() const;

 private:
  friend MixingMatrix BuildMixing(std::string_view kind,
                                  const std::vector<std::vector<int>>& neighbours);
  std::string kind_;
  std::vector<std::vector<int>> neighbours_;
  std::vector<std::vector<double>> weights_;
  std::vector<double> self_weight_;
};

// REQUIRES: kind is one of MixingKinds(). Throws UserError for bad graphs (see the contract).
MixingMatrix BuildMixing(std::string_view kind, const std::vector<std::vector<int>>& neighbours);

// Logical gossip graphs over nodes 0..n-1 (sorted neighbour lists, duplicates merged):
//   ring      i <-> i +- 1 (mod n)
//   torus     rows x cols = n, rows = the largest divisor of n <= sqrt(n), wrap-around
//   complete  every pair
std::span<const std::string_view> LogicalGraphKinds();
// REQUIRES: kind is one of LogicalGraphKinds(), n >= 1.
std::vector<std::vector<int>> LogicalGraph(std::string_view kind, int n);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_MIXING_H_
