#include "algorithms/decentralized/mixing.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>

#include "base/check.h"
#include "base/error.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 6> kKinds = {"auto", "metropolis", "max_degree",
                                                    "ring", "torus",      "uniform"};

// Nodes not reachable from node 0 (breadth-first search), in increasing order.
std::vector<int> Unreachable(const std::vector<std::vector<int>>& nb) {
  std::vector<char> seen(nb.size(), 0);
  std::vector<int> queue = {0};
  seen[0] = 1;
  for (size_t head = 0; head < queue.size(); ++head) {
    for (int j : nb[queue[head]]) {
      if (!seen[j]) {
        seen[j] = 1;
        queue.push_back(j);
      }
    }
  }
  std::vector<int> out;
  for (size_t i = 0; i < nb.size(); ++i) {
    if (!seen[i]) out.push_back(static_cast<int>(i));
  }
  return out;
}

void RequireDegree(std::string_view kind, const std::vector<std::vector<int>>& nb, size_t degree) {
  for (size_t i = 0; i < nb.size(); ++i) {
    if (nb[i].size() != degree) {
      throw UserError(
          fmt::format("mixing '{}' needs every node to have {} neighbours, but node {} has {} (use "
                      "\"metropolis\" for this graph)",
                      kind, degree, i, nb[i].size()));
    }
  }
}

// The neighbour lists sorted and without repeats, after checking that they describe a usable
// gossip graph: at least 2 nodes, ids in range, no self-loops, no isolated node, symmetric and
// connected. Throws UserError naming the first problem.
std::vector<std::vector<int>> CheckedNeighbours(const std::vector<std::vector<int>>& neighbours) {
  const int n = static_cast<int>(neighbours.size());
  if (n < 2) {
    throw UserError(fmt::format("decentralized algorithms need at least 2 nodes, got {}", n));
  }
  std::vector<std::vector<int>> nb = neighbours;
  for (int i = 0; i < n; ++i) {
    std::sort(nb[i].begin(), nb[i].end());
    nb[i].erase(std::unique(nb[i].begin(), nb[i].end()), nb[i].end());
    for (int j : nb[i]) {
      if (j < 0 || j >= n) {
        throw UserError(
            fmt::format("node {} lists neighbour {}, not a node in 0..{}", i, j, n - 1));
      }
      if (j == i) throw UserError(fmt::format("node {} lists itself as a neighbour", i));
    }
    if (nb[i].empty()) {
      throw UserError(fmt::format(
          "node {} has no neighbours: every node of a decentralized algorithm must be linked to "
          "another node",
          i));
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j : nb[i]) {
      if (!std::binary_search(nb[j].begin(), nb[j].end(), i)) {
        throw UserError(fmt::format(
            "neighbour lists are not symmetric: node {} lists {} but node {} does not list {}", i,
            j, j, i));
      }
    }
  }
  if (std::vector<int> lost = Unreachable(nb); !lost.empty()) {
    throw UserError(fmt::format(
        "the graph is disconnected: node(s) {} cannot be reached from node 0; gossip cannot "
        "reach consensus",
        fmt::join(lost, ", ")));
  }
  return nb;
}

constexpr std::array<std::string_view, 3> kGraphs = {"ring", "torus", "complete"};

}  // namespace

std::span<const std::string_view> MixingKinds() { return kKinds; }
std::span<const std::string_view> LogicalGraphKinds() { return kGraphs; }

std::vector<std::vector<int>> LogicalGraph(std::string_view kind, int n) {
  COMMSIM_CHECK(n >= 1, "a graph needs a node");
  std::vector<std::vector<int>> nb(n);
  auto link = [&](int i, int j) {
    if (i == j) return;
    nb[i].push_back(j);
    nb[j].push_back(i);
  };
  if (kind == "ring") {
    for (int i = 0; i + 1 < n; ++i) link(i, i + 1);
    if (n > 2) link(n - 1, 0);
  } else if (kind == "torus") {
    int rows = 1;
    for (int r = 1; r * r <= n; ++r) {
      if (n % r == 0) rows = r;
    }
    const int cols = n / rows;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        link(r * cols + c, r * cols + (c + 1) % cols);
        link(r * cols + c, ((r + 1) % rows) * cols + c);
      }
    }
  } else {
    COMMSIM_CHECK(kind == "complete", "unknown graph kind {}", kind);
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) link(i, j);
    }
  }
  for (auto& l : nb) {
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
  }
  return nb;
}

int MixingMatrix::SlotOf(int of, int node) const {
  const std::vector<int>& nb = neighbours_[of];
  auto it = std::lower_bound(nb.begin(), nb.end(), node);
  return it != nb.end() && *it == node ? static_cast<int>(it - nb.begin()) : -1;
}

Eigen::MatrixXd MixingMatrix::Dense() const {
  const int n = num_nodes();
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    w(i, i) = self_weight_[i];
    for (size_t k = 0; k < neighbours_[i].size(); ++k) w(i, neighbours_[i][k]) = weights_[i][k];
  }
  return w;
}

MixingMatrix::Spectrum MixingMatrix::ComputeSpectrum() const {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(Dense(), Eigen::EigenvaluesOnly);
  COMMSIM_CHECK(solver.info() == Eigen::Success, "eigen solver failed on the mixing matrix");
  const Eigen::VectorXd& ev = solver.eigenvalues();  // ascending
  const int n = static_cast<int>(ev.size());
  Spectrum s;
  s.lambda2 = n >= 2 ? ev(n - 2) : 0.0;
  s.lambda_n = ev(0);
  s.spectral_gap = 1.0 - std::abs(s.lambda2);
  s.rho = std::max(std::abs(s.lambda2), n >= 2 ? std::abs(s.lambda_n) : 0.0);
  return s;
}

MixingMatrix BuildMixing(std::string_view kind, const std::vector<std::vector<int>>& neighbours) {
  COMMSIM_CHECK(std::find(kKinds.begin(), kKinds.end(), kind) != kKinds.end(),
                "unknown mixing kind {}", kind);
  const int n = static_cast<int>(neighbours.size());
  std::vector<std::vector<int>> nb = CheckedNeighbours(neighbours);

  size_t max_degree = 0;
  for (const auto& l : nb) max_degree = std::max(max_degree, l.size());
  if (kind == "ring") RequireDegree(kind, nb, 2);
  if (kind == "torus") RequireDegree(kind, nb, 4);
  if (kind == "uniform") RequireDegree(kind, nb, static_cast<size_t>(n - 1));

  MixingMatrix m;
  m.kind_ = std::string(kind);
  m.weights_.resize(n);
  m.self_weight_.resize(n);
  for (int i = 0; i < n; ++i) {
    double sum = 0;
    for (int j : nb[i]) {
      double w;
      if (kind == "ring") {
        w = 1.0 / 3.0;
      } else if (kind == "torus") {
        w = 1.0 / 5.0;
      } else if (kind == "uniform") {
        w = 1.0 / n;
      } else if (kind == "max_degree") {
        w = 1.0 / (1.0 + static_cast<double>(max_degree));
      } else {  // metropolis, auto
        w = 1.0 / (1.0 + static_cast<double>(std::max(nb[i].size(), nb[j].size())));
      }
      m.weights_[i].push_back(w);
      sum += w;
    }
    m.self_weight_[i] = 1.0 - sum;
  }
  m.neighbours_ = std::move(nb);

  // Always-on invariant checks on what was built.
  const Eigen::MatrixXd w = m.Dense();
  COMMSIM_CHECK((w - w.transpose()).cwiseAbs().maxCoeff() == 0.0, "mixing matrix not symmetric");
  COMMSIM_CHECK(w.minCoeff() >= 0.0, "mixing matrix has a negative entry {}", w.minCoeff());
  const double row_error = (w.rowwise().sum().array() - 1.0).abs().maxCoeff();
  COMMSIM_CHECK(row_error <= 1e-12, "mixing matrix rows sum to 1 only within {}", row_error);
  return m;
}

}  // namespace commsim
