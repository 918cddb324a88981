// Regular decentralized topologies with uniform links: `ring`, `torus` and `complete`.
//
// Build(n): n hosts, no switches, no server; neighbours = hosts joined by an edge.
//   ring:     edge i joins i and (i + 1) mod n (link 2i goes "clockwise" i -> i+1). n = 2 gives
//             one edge, n = 1 none.
//   torus:    rows x cols = n, node (r, c) = r * cols + c, each joined to its right and lower
//             neighbours with wrap-around (duplicate edges of 2-wide dimensions merged). rows = 0
//             picks the squarest factorisation (rows = largest divisor of n <= sqrt(n)).
//   complete: every pair i < j, in lexicographic order.
#ifndef COMMSIM_SIM_TOPOLOGY_REGULAR_H_
#define COMMSIM_SIM_TOPOLOGY_REGULAR_H_

#include <cstdint>

#include "base/params.h"
#include "sim/topology.h"
#include "sim/topology_links.h"

namespace commsim {

struct RingConfig final : UniformLinksConfig<RingConfig> {};

Topology BuildRing(const RingConfig& config, int n);
using RingBuilder = ConfigBuilder<RingConfig, BuildRing>;

struct TorusConfig final : UniformLinksConfig<TorusConfig> {
  int64_t rows = 0;
  void Describe(ParamVisitor& v) override;
};

Topology BuildTorus(const TorusConfig& config, int n);
using TorusBuilder = ConfigBuilder<TorusConfig, BuildTorus>;

struct CompleteConfig final : UniformLinksConfig<CompleteConfig> {};

Topology BuildComplete(const CompleteConfig& config, int n);
using CompleteBuilder = ConfigBuilder<CompleteConfig, BuildComplete>;

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_REGULAR_H_
