#include "sim/topology_star.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace commsim {
namespace {

// Workers 0..n-1, server n; neighbours form the parameter-server star.
TopologyShape PsShape(std::string kind, int n) {
  TopologyShape shape;
  shape.kind = std::move(kind);
  shape.num_hosts = n + 1;
  shape.servers = {n};
  shape.neighbours.resize(n + 1);
  for (int i = 0; i < n; ++i) {
    shape.neighbours[i] = {n};
    shape.neighbours[n].push_back(i);
    shape.node_names.push_back(fmt::format("w{}", i));
  }
  shape.node_names.push_back("server");
  return shape;
}

// Workers 0..n-1 and `servers` shard servers (hosts n.. after them, or workers 0.. when
// colocated); each worker's neighbours are the servers, each server's the workers.
TopologyShape ShardedShape(int n, int servers, bool colocated) {
  TopologyShape shape;
  shape.kind = "star";
  shape.num_hosts = colocated ? n : n + servers;
  shape.colocated = colocated;
  shape.neighbours.resize(shape.num_hosts);
  for (int i = 0; i < n; ++i) shape.node_names.push_back(fmt::format("w{}", i));
  for (int s = 0; s < servers; ++s) {
    const int host = colocated ? s : n + s;
    shape.servers.push_back(host);
    if (!colocated) shape.node_names.push_back(fmt::format("server{}", s));
    for (int i = 0; i < n; ++i) {
      if (i == host) continue;
      shape.neighbours[i].push_back(host);
      shape.neighbours[host].push_back(i);
    }
  }
  return shape;
}

}  // namespace

void WorkerLinks::Describe(ParamVisitor& v) {
  DescribeLink(v, "worker", worker_bandwidth_bps, worker_latency_s,
               "bandwidth of each worker's link, each direction",
               "one-way latency of each worker's link");
  v.RealList("worker_bandwidths", worker_bandwidths_bps, Range::Positive(),
             "per-worker bandwidths (empty = worker_bandwidth for all)", Unit::kBitsPerSecond);
  v.RealList("worker_latencies", worker_latencies_s, LatencyRange(),
             "per-worker latencies (empty = worker_latency for all)", Unit::kSeconds);
}

void WorkerLinks::Check(std::string_view kind, int n) const {
  CheckLink(kind, "worker", worker_bandwidth_bps, worker_latency_s);
  CheckListSize(kind, "worker_bandwidths", worker_bandwidths_bps, n, "worker");
  CheckListSize(kind, "worker_latencies", worker_latencies_s, n, "worker");
  for (size_t i = 0; i < worker_bandwidths_bps.size(); ++i) {
    CheckBandwidth(kind, fmt::format("worker_bandwidths[{}]", i), worker_bandwidths_bps[i]);
  }
  for (size_t i = 0; i < worker_latencies_s.size(); ++i) {
    CheckLatency(kind, fmt::format("worker_latencies[{}]", i), worker_latencies_s[i]);
  }
}

double WorkerLinks::bandwidth_bps(int worker) const {
  return worker_bandwidths_bps.empty() ? worker_bandwidth_bps : worker_bandwidths_bps[worker];
}

double WorkerLinks::latency_s(int worker) const {
  return worker_latencies_s.empty() ? worker_latency_s : worker_latencies_s[worker];
}

void StarConfig::Describe(ParamVisitor& v) {
  workers.Describe(v);
  DescribeLink(v, "server", server_bandwidth_bps, server_latency_s,
               "bandwidth of the switch-server link, each direction",
               "one-way latency of the switch-server link");
  v.Int("servers", servers, Range::AtLeast(1),
        "parameter-server shards: the vector is split into this many contiguous shards, each "
        "served by its own host (with its own link of the server values)");
  v.Bool("colocated", colocated,
         "put shard s on worker s (BytePS style) instead of on server hosts; needs servers <= "
         "workers");
}

Topology BuildStar(const StarConfig& config, int n) {
  CheckCount("star", "workers", n, 1);
  config.workers.Check("star", n);
  CheckLink("star", "server", config.server_bandwidth_bps, config.server_latency_s);
  if (config.servers > n && config.colocated) {
    ThrowTopologyError("star", "servers",
                       fmt::format("colocated shards sit on workers, so at most {} (the "
                                   "workers), got {}",
                                   n, config.servers));
  }
  const int servers = static_cast<int>(std::min<int64_t>(config.servers, Topology::kMaxHosts));
  TopologyShape shape = servers == 1 && !config.colocated
                            ? PsShape("star", n)
                            : ShardedShape(n, servers, config.colocated);
  shape.num_switches = 1;
  const int sw = shape.num_hosts;
  for (int i = 0; i < n; ++i) {
    shape.edges.push_back({i, sw, config.workers.bandwidth_bps(i), config.workers.latency_s(i)});
  }
  if (!config.colocated) {
    for (int server : shape.servers) {
      shape.edges.push_back({server, sw, config.server_bandwidth_bps, config.server_latency_s});
    }
  }
  shape.node_names.push_back("switch");
  return Topology::Create(std::move(shape));
}

Topology BuildStarDirect(const StarDirectConfig& config, int n) {
  CheckCount("star_direct", "workers", n, 1);
  config.workers.Check("star_direct", n);
  TopologyShape shape = PsShape("star_direct", n);
  for (int i = 0; i < n; ++i) {
    shape.edges.push_back({i, n, config.workers.bandwidth_bps(i), config.workers.latency_s(i)});
  }
  return Topology::Create(std::move(shape));
}

}  // namespace commsim
