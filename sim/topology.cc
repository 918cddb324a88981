#include "sim/topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <limits>
#include <utility>

#include "base/check.h"
#include "base/error.h"
#include "sim/time.h"

namespace commsim {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, int64_t>>;
constexpr int64_t kUnreached = std::numeric_limits<int64_t>::max();

[[noreturn]] void Fail(const TopologyShape& s, const std::string& message) {
  throw UserError(fmt::format("topology {}: {}", s.kind, message));
}

void CheckRacks(const TopologyShape& s) {
  if (s.racks.empty()) return;
  if (s.racks.size() != static_cast<size_t>(s.num_hosts)) {
    Fail(s, "rack ids must be given for every host");
  }
  std::vector<bool> used(s.racks.size(), false);
  for (size_t h = 0; h < s.racks.size(); ++h) {
    if (s.racks[h] < 0 || s.racks[h] >= s.num_hosts) {
      Fail(s, fmt::format("host {} has rack id {}, not in [0, {})", h, s.racks[h], s.num_hosts));
    }
    used[s.racks[h]] = true;
  }
  const auto first_unused = std::find(used.begin(), used.end(), false);
  if (std::find(first_unused, used.end(), true) != used.end()) {
    Fail(s, fmt::format("rack {} has no host (rack ids must be 0..R-1, each used)",
                        first_unused - used.begin()));
  }
}

void CheckShape(const TopologyShape& s) {
  if (s.num_hosts < 1) Fail(s, fmt::format("needs at least 1 host, got {}", s.num_hosts));
  if (s.num_hosts > Topology::kMaxHosts) {
    Fail(s, fmt::format("{} hosts is more than the {} a topology may have", s.num_hosts,
                        Topology::kMaxHosts));
  }
  if (s.num_switches < 0) Fail(s, fmt::format("switches must be >= 0, got {}", s.num_switches));
  const int nodes = s.num_hosts + s.num_switches;
  std::vector<bool> is_server(s.num_hosts, false);
  for (int server : s.servers) {
    if (server < 0 || server >= s.num_hosts) {
      Fail(s, fmt::format("server must be a host in [0, {}), got {}", s.num_hosts, server));
    }
    if (is_server[server]) Fail(s, fmt::format("host {} is a server twice", server));
    is_server[server] = true;
  }
  if (!s.colocated && static_cast<int>(s.servers.size()) >= s.num_hosts) {
    Fail(s, "needs at least one host that is not a dedicated server");
  }
  for (size_t k = 0; k < s.edges.size(); ++k) {
    const Edge& e = s.edges[k];
    for (int end : {e.a, e.b}) {
      if (end < 0 || end >= nodes) {
        Fail(s, fmt::format("edge {} ({}-{}): node {} is not in [0, {})", k, e.a, e.b, end, nodes));
      }
    }
    if (e.a == e.b) Fail(s, fmt::format("edge {}: joins node {} to itself", k, e.a));
    if (!(e.bandwidth_bps > 0) || !std::isfinite(e.bandwidth_bps)) {
      Fail(s, fmt::format("edge {} ({}-{}): bandwidth must be > 0 bit/s, got {}", k, e.a, e.b,
                          e.bandwidth_bps));
    }
    if (!(e.latency_s >= 0) || !std::isfinite(e.latency_s)) {
      Fail(s, fmt::format("edge {} ({}-{}): latency must be >= 0 s, got {}", k, e.a, e.b,
                          e.latency_s));
    }
  }
  if (!s.neighbours.empty() && s.neighbours.size() != static_cast<size_t>(s.num_hosts)) {
    Fail(s, "neighbour lists must be given for every host");
  }
  for (size_t h = 0; h < s.neighbours.size(); ++h) {
    for (int other : s.neighbours[h]) {
      if (other < 0 || other >= s.num_hosts || other == static_cast<int>(h)) {
        Fail(s, fmt::format("host {} lists {} as a neighbour", h, other));
      }
    }
  }
  if (!s.node_names.empty() && s.node_names.size() != static_cast<size_t>(nodes)) {
    Fail(s, "node names must be given for every node");
  }
  CheckRacks(s);
}

}  // namespace

Topology Topology::Create(TopologyShape shape) {
  CheckShape(shape);
  Topology t;
  t.kind_ = std::move(shape.kind);
  t.num_hosts_ = shape.num_hosts;
  t.num_nodes_ = shape.num_hosts + shape.num_switches;
  t.servers_ = std::move(shape.servers);
  t.colocated_ = shape.colocated;
  t.links_.reserve(2 * shape.edges.size());
  for (const Edge& e : shape.edges) {
    t.links_.push_back(Link{e.a, e.b, e.bandwidth_bps, e.latency_s});
    t.links_.push_back(Link{e.b, e.a, e.bandwidth_bps, e.latency_s});
  }
  if (shape.neighbours.empty()) {
    t.neighbours_.assign(t.num_hosts_, {});
    for (const Link& l : t.links_) {
      if (l.from < t.num_hosts_ && l.to < t.num_hosts_) t.neighbours_[l.from].push_back(l.to);
    }
  } else {
    t.neighbours_ = std::move(shape.neighbours);
  }
  for (std::vector<int>& list : t.neighbours_) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  t.node_names_ = std::move(shape.node_names);
  if (t.node_names_.empty()) {
    for (int v = 0; v < t.num_nodes_; ++v) {
      t.node_names_.push_back(v < t.num_hosts_ ? fmt::format("h{}", v)
                                               : fmt::format("s{}", v - t.num_hosts_));
    }
  }
  t.rack_of_host_ = std::move(shape.racks);
  if (t.rack_of_host_.empty()) t.rack_of_host_.assign(t.num_hosts_, 0);
  t.rack_hosts_.assign(*std::max_element(t.rack_of_host_.begin(), t.rack_of_host_.end()) + 1, {});
  for (int h = 0; h < t.num_hosts_; ++h) t.rack_hosts_[t.rack_of_host_[h]].push_back(h);
  t.spread_equal_cost_ = shape.spread_equal_cost;
  t.ComputeRoutes();
  return t;
}

std::vector<int> Topology::WorkerHosts() const {
  std::vector<int> hosts;
  for (int h = 0; h < num_hosts_; ++h) {
    if (colocated_ || std::find(servers_.begin(), servers_.end(), h) == servers_.end()) {
      hosts.push_back(h);
    }
  }
  return hosts;
}

int SpreadIndex(int src_host, int node, int count) {
  COMMSIM_CHECK(count >= 1, "SpreadIndex over {} candidates", count);
  uint64_t z = (static_cast<uint64_t>(src_host) << 32) + static_cast<uint64_t>(node);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<int>(z % static_cast<uint64_t>(count));
}

int Topology::rack(int host) const {
  COMMSIM_CHECK(host >= 0 && host < num_hosts_, "host {} out of range", host);
  return rack_of_host_[host];
}

const std::vector<int>& Topology::rack_hosts(int rack) const {
  COMMSIM_CHECK(rack >= 0 && rack < num_racks(), "rack {} out of range", rack);
  return rack_hosts_[rack];
}

const std::vector<int>& Topology::neighbours(int host) const {
  COMMSIM_CHECK(host >= 0 && host < num_hosts_, "host {} out of range", host);
  return neighbours_[host];
}

const std::string& Topology::node_name(int node) const {
  COMMSIM_CHECK(node >= 0 && node < num_nodes_, "node {} out of range", node);
  return node_names_[node];
}

std::vector<int> Topology::Route(int src_host, int dst_host) const {
  std::vector<int> links;
  RouteInto(src_host, dst_host, links);
  return links;
}

void Topology::RouteInto(int src_host, int dst_host, std::vector<int>& links) const {
  COMMSIM_CHECK(src_host >= 0 && src_host < num_hosts_ && dst_host >= 0 && dst_host < num_hosts_,
                "route {} -> {} outside hosts [0, {})", src_host, dst_host, num_hosts_);
  links.clear();
  if (src_host == dst_host) return;
  const int a = host_anchor_[src_host];
  const int anchor = anchor_node_[a];
  const uint32_t* begin = candidate_begin_.data() + static_cast<size_t>(a) * (num_nodes_ + 1);
  const int* candidates = candidate_links_.data() + anchor_base_[a];
  for (int v = dst_host; v != anchor;) {
    const uint32_t count = begin[v + 1] - begin[v];
    const int pick = spread_equal_cost_ ? SpreadIndex(src_host, v, static_cast<int>(count)) : 0;
    const int link = candidates[begin[v] + pick];
    links.push_back(link);
    v = links_[link].from;
  }
  if (host_link_[src_host] >= 0) links.push_back(host_link_[src_host]);
  std::reverse(links.begin(), links.end());
}

// For each node, the links ending there on a shortest path from the anchor, sorted by (from
// node, link id); without spreading only the first is kept (it is the one every route takes).
void Topology::AddCandidates(int anchor, const std::vector<int64_t>& dist,
                             const std::vector<int64_t>& weight,
                             std::vector<std::vector<int>>& candidates) {
  for (std::vector<int>& c : candidates) c.clear();
  for (size_t id = 0; id < links_.size(); ++id) {
    const Link& l = links_[id];
    if (l.to == anchor || dist[l.from] + weight[id] != dist[l.to]) continue;
    candidates[l.to].push_back(static_cast<int>(id));  // in link id order
  }
  anchor_base_.push_back(static_cast<int64_t>(candidate_links_.size()));
  uint32_t count = 0;
  for (int v = 0; v < num_nodes_; ++v) {
    candidate_begin_.push_back(count);
    std::vector<int>& c = candidates[v];
    std::stable_sort(c.begin(), c.end(),
                     [&](int x, int y) { return links_[x].from < links_[y].from; });
    if (!spread_equal_cost_ && c.size() > 1) c.resize(1);
    candidate_links_.insert(candidate_links_.end(), c.begin(), c.end());
    count += static_cast<uint32_t>(c.size());
  }
  candidate_begin_.push_back(count);
  const int64_t entries = static_cast<int64_t>(candidate_begin_.size() + candidate_links_.size());
  if (entries > kMaxRouteEntries) {
    throw UserError(fmt::format(
        "topology {}: its routes need more than {} table entries ({} nodes, {} hosts of which "
        "{} have more than one link and need a table each); hosts that each hang off one switch "
        "share their switch's table",
        kind_, kMaxRouteEntries, num_nodes_, num_hosts_, anchor_node_.size()));
  }
}

void Topology::CheckConnected(const std::vector<int64_t>& dist_from_host0) const {
  for (int v = 0; v < num_nodes_; ++v) {
    if (dist_from_host0[v] == kUnreached) {
      throw UserError(fmt::format("topology {}: the graph is disconnected: {} cannot reach {}",
                                  kind_, node_names_[0], node_names_[v]));
    }
  }
}

// Integer weights make ties exact: latency in picoseconds scaled by num_nodes, plus one per hop,
// so a path with fewer hops wins only among paths of equal latency.
void Topology::ComputeRoutes() {
  const int64_t scale = num_nodes_;
  int64_t max_latency_ps = 0;
  for (const Link& l : links_) {
    max_latency_ps = std::max(max_latency_ps, SimTime::FromSeconds(l.latency_s).ps());
  }
  if (max_latency_ps > (int64_t{1} << 62) / scale / scale) {
    throw UserError(
        fmt::format("topology {}: link latencies up to {} s on {} nodes are too large "
                    "to route",
                    kind_, static_cast<double>(max_latency_ps) * 1e-12, num_nodes_));
  }
  std::vector<int64_t> weight(links_.size());
  Graph g(num_nodes_);
  std::vector<int> degree(num_nodes_, 0), only_link(num_nodes_, -1);
  for (size_t id = 0; id < links_.size(); ++id) {
    weight[id] = SimTime::FromSeconds(links_[id].latency_s).ps() * scale + 1;
    boost::add_edge(links_[id].from, links_[id].to, weight[id], g);
    ++degree[links_[id].from];
    only_link[links_[id].from] = static_cast<int>(id);
  }
  std::vector<int64_t> dist(num_nodes_);
  auto dijkstra = [&](int src) {
    boost::dijkstra_shortest_paths(
        g, src,
        boost::distance_map(
            boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)))
            .distance_inf(kUnreached));
  };
  dijkstra(0);
  CheckConnected(dist);
  // A host with one link routes through the node at its far end; others are their own anchor.
  std::vector<int> anchor_of_node(num_nodes_, -1);
  host_anchor_.assign(num_hosts_, -1);
  host_link_.assign(num_hosts_, -1);
  for (int h = 0; h < num_hosts_; ++h) {
    const int node = degree[h] == 1 ? links_[only_link[h]].to : h;
    if (node != h) host_link_[h] = only_link[h];
    if (anchor_of_node[node] < 0) {
      anchor_of_node[node] = static_cast<int>(anchor_node_.size());
      anchor_node_.push_back(node);
    }
    host_anchor_[h] = anchor_of_node[node];
  }
  const int64_t offsets = static_cast<int64_t>(anchor_node_.size()) * (num_nodes_ + 1);
  if (offsets > kMaxRouteEntries) {
    throw UserError(fmt::format(
        "topology {}: {} hosts of {} nodes with more than one link each need a route table "
        "of {} entries each, more than the {} in all a topology may have; hosts that each hang "
        "off one switch share their switch's table",
        kind_, anchor_node_.size(), num_nodes_, num_nodes_ + 1, kMaxRouteEntries));
  }
  std::vector<std::vector<int>> candidates(num_nodes_);
  for (int node : anchor_node_) {
    dijkstra(node);
    AddCandidates(node, dist, weight, candidates);
  }
}

}  // namespace commsim
