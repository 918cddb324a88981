// Parameter-server topologies: `star` (workers and server through one switch) and `star_direct`
// (a dedicated link from each worker to the server).
//
// Build(n): n workers are hosts 0..n-1, the server is host n (server() == n), so num_hosts() is
// n + 1; `star` adds the switch as node n + 1. Link ids: worker i's edge is edge i (link 2i =
// worker -> switch/server, 2i + 1 = back); in `star` the server's edge is edge n (link 2n =
// server -> switch, 2n + 1 = switch -> server). neighbours: each worker has {server}; the server
// has every worker. Optional per-worker lists override the uniform worker link values.
// Sharded `star` (servers = S > 1, the shards of a parameter server): servers are hosts
// n..n+S-1, each with its own edge n+s to the switch (node n + S) of the server link values;
// with colocated the S servers are workers 0..S-1 (S <= n), there are n hosts and the switch is
// node n. neighbours: each worker has every server (but itself), each server every worker.
#ifndef COMMSIM_SIM_TOPOLOGY_STAR_H_
#define COMMSIM_SIM_TOPOLOGY_STAR_H_

#include <vector>

#include "base/params.h"
#include "sim/topology.h"
#include "sim/topology_links.h"

namespace commsim {

struct WorkerLinks {
  double worker_bandwidth_bps = kDefaultBandwidthBps;
  double worker_latency_s = kDefaultLatencyS;
  std::vector<double> worker_bandwidths_bps;  // empty = all worker_bandwidth
  std::vector<double> worker_latencies_s;     // empty = all worker_latency

  void Describe(ParamVisitor& v);
  void Check(std::string_view kind, int n) const;
  double bandwidth_bps(int worker) const;
  double latency_s(int worker) const;
};

struct StarConfig final : ConfigBase<StarConfig> {
  WorkerLinks workers;
  double server_bandwidth_bps = kDefaultBandwidthBps;
  double server_latency_s = kDefaultLatencyS;
  int64_t servers = 1;     // parameter-server shards, each on its own host
  bool colocated = false;  // shard s on worker s instead of a server host
  void Describe(ParamVisitor& v) override;
};

Topology BuildStar(const StarConfig& config, int n);
using StarBuilder = ConfigBuilder<StarConfig, BuildStar>;

struct StarDirectConfig final : ConfigBase<StarDirectConfig> {
  WorkerLinks workers;
  void Describe(ParamVisitor& v) override { workers.Describe(v); }
};

Topology BuildStarDirect(const StarDirectConfig& config, int n);
using StarDirectBuilder = ConfigBuilder<StarDirectConfig, BuildStarDirect>;

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_STAR_H_
