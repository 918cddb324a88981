// NetSpec: the input of `commsim net`, a message pattern on a topology.
//
// JSON keys (all optional; defaults in parentheses):
//   workers (4)    hosts besides the server: workers of star kinds (and of explicit with a
//                  server), nodes of the other topologies
//   topology       component (star), e.g. {"name": "ring", "bandwidth": "10Gbps"}
//   model, queue, mtu, protocol, framing, tcp_timestamps   the network model
//                  (scenarios/network_keys.h; an mtu without a model keeps its old meaning)
//   pattern        one of TrafficPatternNames() (incast)
//   message (1e6)  bits of each message, e.g. "1MB"; ring_allreduce splits it in `nodes` chunks
// Problems are reported together, each as "<file>: /json/pointer: expected ..., got ...".
#ifndef COMMSIM_SCENARIOS_NET_SPEC_H_
#define COMMSIM_SCENARIOS_NET_SPEC_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/params.h"
#include "scenarios/network_keys.h"
#include "sim/network.h"
#include "sim/topology.h"
#include "sim/traffic.h"

namespace commsim {

struct NetSpec {
  int64_t workers = 4;
  ComponentSpec topology;  // kind "topology"
  NetworkKeys keys;        // as written (model resolved)
  NetworkOptions network;  // what the Network is built with
  TrafficPattern pattern = TrafficPattern::kIncast;
  int64_t message_bits = 1'000'000;
};

// Parses and validates a spec: every key, the topology parameters, and that the topology can be
// built and suits the pattern. Throws UserError listing every problem found.
NetSpec ParseNetSpec(const nlohmann::json& doc, const std::string& origin);
// Reads a spec file, applies `--set /json/pointer=value` overrides (as for scenarios), parses it.
NetSpec LoadNetSpec(const std::string& path, const std::vector<std::string>& sets = {});
// The spec with every default filled in.
nlohmann::json ResolvedNetSpec(const NetSpec& spec);
// Builds the spec's topology. REQUIRES: spec came from ParseNetSpec (so this does not throw).
Topology BuildNetTopology(const NetSpec& spec);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_NET_SPEC_H_
