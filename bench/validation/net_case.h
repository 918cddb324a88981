// NetCase: one validation case as the reference simulators (SimGrid, ns-3) read it.
//
// The input is the very spec file that `commsim net` runs, restricted to what the harness
// writes: numbers only (bits, bit/s, seconds) and an `explicit` topology, e.g.
//   {"workers": 9, "pattern": "ps_round", "message": 8000000, "mtu": 12000,
//    "topology": {"name": "explicit", "switches": 1, "server": 8, "edges": [0, 9, 1, 9, ...],
//                 "bandwidth": 1e9, "latency": 5e-05, "bandwidths": [...], "latencies": [...]}}
// `workers` is the number of hosts (ids 0 .. hosts-1), switches follow (hosts .. hosts+switches-1).
// Keys the reference programs do not model (mtu, and commsim-only keys such as a network model
// or protocol) are accepted and ignored, so one file serves the three simulators.
// Directed links: edge e = (a, b) gives link 2e (a -> b) and link 2e + 1 (b -> a), as in commsim.
// Routes are shortest paths in hops (breadth-first from the destination, ties broken by the
// lowest edge index), so every simulator routes a flow over the same links; on the tree-shaped
// topologies of the suite the route is unique.
#ifndef COMMSIM_BENCH_VALIDATION_NET_CASE_H_
#define COMMSIM_BENCH_VALIDATION_NET_CASE_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace validation {

// A malformed case file: "file: /json/pointer: expected ..., got ...".
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Edge {
  int a = 0;
  int b = 0;
  double bandwidth_bps = 0;
  double latency_s = 0;
};

struct NetCase {
  int hosts = 0;
  int switches = 0;
  int server = -1;  // -1: no server (ring patterns)
  std::vector<Edge> edges;
  std::string pattern;
  int64_t message_bits = 0;

  int nodes() const { return hosts + switches; }
  // Every host except the server, in id order.
  std::vector<int> workers() const;
  const Edge& edge_of_link(int link) const { return edges[static_cast<size_t>(link / 2)]; }
  int link_from(int link) const {
    return link % 2 == 0 ? edge_of_link(link).a : edge_of_link(link).b;
  }
  int link_to(int link) const {
    return link % 2 == 0 ? edge_of_link(link).b : edge_of_link(link).a;
  }
};

// Reads and checks a case file. Throws CaseError naming the file and the JSON pointer.
NetCase LoadNetCase(const std::string& path);

// Directed link ids from src to dst (empty when src == dst). REQUIRES: the graph is connected
// (LoadNetCase checks it).
std::vector<int> Route(const NetCase& net, int src, int dst);

// Hops from every node to `root` (the breadth-first distances used by Route).
std::vector<int> HopsTo(const NetCase& net, int root);

// The main() of a reference program: run(argc, argv), or "error: <what>" on stderr and exit code
// 1 when it throws (a bad case file, a bad argument, a failure inside the simulator).
int MainWithErrors(int argc, char** argv, int (*run)(int, char**));

}  // namespace validation

#endif  // COMMSIM_BENCH_VALIDATION_NET_CASE_H_
