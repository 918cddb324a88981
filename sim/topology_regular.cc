#include "sim/topology_regular.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

namespace commsim {

Topology BuildRing(const RingConfig& config, int n) {
  TopologyShape shape = UniformShape("ring", n, config.links);
  const int edges = n == 1 ? 0 : (n == 2 ? 1 : n);
  for (int i = 0; i < edges; ++i) {
    shape.edges.push_back(config.links.Join(i, (i + 1) % n));
  }
  return Topology::Create(std::move(shape));
}

void TorusConfig::Describe(ParamVisitor& v) {
  v.Int("rows", rows, Range::NonNegative(),
        "rows of the grid; must divide the node count (0 = squarest factorisation)");
  links.Describe(v);
}

Topology BuildTorus(const TorusConfig& config, int n) {
  TopologyShape shape = UniformShape("torus", n, config.links);
  int rows = static_cast<int>(config.rows);
  if (config.rows < 0) {
    ThrowTopologyError("torus", "rows", fmt::format("must be >= 0, got {}", config.rows));
  }
  if (rows == 0) {
    for (int r = 1; r * r <= n; ++r) {
      if (n % r == 0) rows = r;
    }
  } else if (config.rows > n || n % rows != 0) {
    ThrowTopologyError("torus", "rows",
                       fmt::format("{} does not divide the node count {}", config.rows, n));
  }
  const int cols = n / rows;
  std::set<std::pair<int, int>> seen;
  auto add = [&](int a, int b) {
    if (a == b || !seen.insert({std::min(a, b), std::max(a, b)}).second) return;
    shape.edges.push_back(config.links.Join(a, b));
  };
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      add(r * cols + c, r * cols + (c + 1) % cols);
      add(r * cols + c, ((r + 1) % rows) * cols + c);
    }
  }
  return Topology::Create(std::move(shape));
}

Topology BuildComplete(const CompleteConfig& config, int n) {
  TopologyShape shape = UniformShape("complete", n, config.links);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      shape.edges.push_back(config.links.Join(i, j));
    }
  }
  return Topology::Create(std::move(shape));
}

}  // namespace commsim
