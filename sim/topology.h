// Topology: an immutable network graph of hosts and switches with precomputed routes.
//
// Contract:
//   - Nodes 0..num_hosts()-1 are hosts (they run agents); nodes num_hosts()..num_nodes()-1 are
//     switches (they only forward).
//   - servers(): the parameter-server hosts, in shard order (empty: none; a sharded parameter
//     server has several). Dedicated servers only serve; colocated() servers are workers too
//     (BytePS style). Workers are the hosts that are not dedicated servers, in host order
//     (WorkerHosts()).
//   - Every undirected edge is full duplex: edge k becomes directional links 2k (a->b) and
//     2k+1 (b->a), each with its own bandwidth_bps (> 0) and latency_s (>= 0).
//   - Route(src, dst) is a shortest path by total latency; ties go to fewer hops, then to the
//     smallest predecessor node id at each step (then the smallest link id). A builder may ask
//     for equal-cost spreading instead (fat_tree): among the predecessors of node v on equal
//     shortest paths from src (sorted by node id, then link id), the route takes the one at index
//     SpreadIndex(src, v, count), a fixed hash of (source host, node). All routes from one
//     source form a tree, so the union of routes to several destinations is a multicast tree.
//   - Routes are not stored per pair of hosts. Every route from a host with a single link leaves
//     through the node at its far end (its anchor: the switch of a star, a ToR, an edge switch),
//     and shortest paths from there are those of every host hanging off it, so the predecessor
//     candidates of each node are computed once per anchor at construction (a host with several
//     links is its own anchor) and Route() walks them back from the destination: O(hops) per
//     call, memory O(anchors x (nodes + candidate links)), linear in hosts for the star, tree,
//     dumbbell and fat_tree kinds. Create() refuses a topology whose tables would exceed
//     kMaxRouteEntries (graph kinds, whose every host is an anchor, past about 11,000 nodes).
//   - rack(h): the group of hosts behind one access switch (tree/fat_tree: the rack or edge
//     switch; dumbbell: the side; star and graph kinds: one group, rack 0). Racks are numbered
//     0..num_racks()-1 and each holds at least one host; rack_hosts(r) lists them, sorted.
//   - neighbours(h): the hosts h talks to directly in decentralized algorithms, sorted. By default
//     the hosts joined to h by one edge; a builder may set them (star: workers <-> server).
//   - The graph must be connected; Create() throws UserError otherwise, or for bad values.
#ifndef COMMSIM_SIM_TOPOLOGY_H_
#define COMMSIM_SIM_TOPOLOGY_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace commsim {

// One direction of a full-duplex edge.
struct Link {
  int from = 0;
  int to = 0;
  double bandwidth_bps = 0;
  double latency_s = 0;
};

// A full-duplex edge between nodes a and b.
struct Edge {
  int a = 0;
  int b = 0;
  double bandwidth_bps = 0;
  double latency_s = 0;
};

// Everything a builder decides; Topology::Create validates it and computes routes.
struct TopologyShape {
  std::string kind;  // registry name, for messages and output
  int num_hosts = 0;
  int num_switches = 0;
  std::vector<int> servers;  // distinct hosts, in shard order
  bool colocated = false;    // the servers are workers too
  std::vector<Edge> edges;
  // Empty = hosts joined by an edge. Otherwise one sorted list per host.
  std::vector<std::vector<int>> neighbours;
  // Empty = "h<i>" for hosts, "s<k>" for switches. Otherwise one name per node.
  std::vector<std::string> node_names;
  // Empty = every host in rack 0. Otherwise one rack id per host; ids 0..R-1, each used.
  std::vector<int> racks;
  // Spread routes over equal-cost paths by SpreadIndex instead of taking the smallest node id.
  bool spread_equal_cost = false;
};

// The index in [0, count) of the equal-cost predecessor that routes from src_host take at node:
// SplitMix64's finaliser of (src_host * 2^32 + node), modulo count. REQUIRES: count >= 1.
int SpreadIndex(int src_host, int node, int count);

class Topology {
 public:
  // Hosts are bounded by the largest fat tree (k = 64); routes by kMaxRouteEntries: anchors x
  // (nodes + 1) offsets plus the candidate links, 4 bytes each.
  static constexpr int kMaxHosts = 65536;
  static constexpr int64_t kMaxRouteEntries = int64_t{1} << 27;

  // Throws UserError naming the edge and the field for a bad value, for a disconnected graph,
  // for more than kMaxHosts hosts or route tables larger than kMaxRouteEntries.
  static Topology Create(TopologyShape shape);

  const std::string& kind() const { return kind_; }
  int num_nodes() const { return num_nodes_; }
  int num_hosts() const { return num_hosts_; }
  // The first server (the only one unless sharded), when the topology has servers.
  std::optional<int> server() const {
    return servers_.empty() ? std::nullopt : std::optional<int>(servers_.front());
  }
  const std::vector<int>& servers() const { return servers_; }
  bool colocated() const { return colocated_; }
  // Every host that is not a dedicated server, in host order.
  std::vector<int> WorkerHosts() const;
  const std::vector<int>& neighbours(int host) const;
  const std::vector<Link>& links() const { return links_; }
  const std::string& node_name(int node) const;
  int rack(int host) const;
  int num_racks() const { return static_cast<int>(rack_hosts_.size()); }
  const std::vector<int>& rack_hosts(int rack) const;
  // Link ids from src_host to dst_host, in order; empty when src == dst.
  std::vector<int> Route(int src_host, int dst_host) const;
  // The same into `links` (cleared first), without allocating once it has the capacity.
  void RouteInto(int src_host, int dst_host, std::vector<int>& links) const;

 private:
  Topology() = default;
  void ComputeRoutes();
  void CheckConnected(const std::vector<int64_t>& dist_from_host0) const;
  // Appends the anchor's candidate table: per node, its predecessor links on shortest paths from
  // the anchor sorted by (from node, link id) (only the first one without spreading).
  void AddCandidates(int anchor, const std::vector<int64_t>& dist,
                     const std::vector<int64_t>& weight, std::vector<std::vector<int>>& candidates);

  std::string kind_;
  int num_nodes_ = 0;
  int num_hosts_ = 0;
  std::vector<int> servers_;
  bool colocated_ = false;
  std::vector<Link> links_;
  std::vector<std::vector<int>> neighbours_;
  std::vector<std::string> node_names_;
  bool spread_equal_cost_ = false;
  std::vector<int> rack_of_host_;
  std::vector<std::vector<int>> rack_hosts_;
  // Routing tables. host_anchor_[h]: index of h's anchor; host_link_[h]: h's only link when its
  // anchor is another node, else -1. Anchor a is node anchor_node_[a]; the candidates of node v
  // are candidate_links_[anchor_base_[a] + candidate_begin_[a * (num_nodes_ + 1) + v] ..
  // + candidate_begin_[... + v + 1]).
  std::vector<int> host_anchor_;
  std::vector<int> host_link_;
  std::vector<int> anchor_node_;
  std::vector<int64_t> anchor_base_;
  std::vector<uint32_t> candidate_begin_;
  std::vector<int> candidate_links_;
};

// A topology kind, configured from JSON (see topology_registry.h). `n` is the number of workers
// for star kinds and the number of nodes otherwise. Throws UserError for bad parameters.
class TopologyBuilder {
 public:
  virtual ~TopologyBuilder() = default;
  virtual Topology Build(int n) const = 0;
};

// The builder of a kind whose topology is a function of its typed config and n: each kind
// declares `Topology BuildX(const XConfig& config, int n);` and
// `using XBuilder = ConfigBuilder<XConfig, BuildX>;`.
template <class Config, Topology (*kBuild)(const Config&, int)>
class ConfigBuilder final : public TopologyBuilder {
 public:
  explicit ConfigBuilder(const Config& config) : config_(config) {}
  Topology Build(int n) const override { return kBuild(config_, n); }

 private:
  Config config_;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_H_
