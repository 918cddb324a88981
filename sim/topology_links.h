// Shared pieces of the topology builders: link parameter fields and their checks.
//
// Builders validate their own fields (naming them: "topology ring: bandwidth: must be > 0 bit/s,
// got 0") before Topology::Create checks the assembled graph, so errors read in the user's terms
// even when a config is built in C++ rather than read from JSON (where Describe() ranges apply).
#ifndef COMMSIM_SIM_TOPOLOGY_LINKS_H_
#define COMMSIM_SIM_TOPOLOGY_LINKS_H_

#include <string_view>
#include <vector>

#include "base/params.h"
#include "sim/time.h"
#include "sim/topology.h"

namespace commsim {

inline constexpr double kDefaultBandwidthBps = 1e9;
inline constexpr double kDefaultLatencyS = 10e-6;

// Latencies from 0 to kMaxLatencyS, just under the simulated-time limit (SimTime::kMaxSeconds,
// about 106 days); routing may refuse lower ones on larger graphs (Topology::Create).
inline constexpr double kMaxLatencyS = kMaxDurationS;
Range LatencyRange();

// One bandwidth and one latency: the links of one tier of a fabric (the fields
// `<prefix>_bandwidth` and `<prefix>_latency`, as DescribeLink and CheckLink below).
struct LinkValues {
  double bandwidth_bps = kDefaultBandwidthBps;
  double latency_s = kDefaultLatencyS;

  void Describe(ParamVisitor& v, std::string_view prefix, std::string_view bandwidth_help,
                std::string_view latency_help);
  void Check(std::string_view kind, std::string_view prefix) const;
  // The full-duplex edge between nodes a and b with these values.
  Edge Join(int a, int b) const { return {a, b, bandwidth_bps, latency_s}; }
};

// The values of every link of a uniform topology: the fields `bandwidth` and `latency`.
struct UniformLinks : LinkValues {
  void Describe(ParamVisitor& v);
  void Check(std::string_view kind) const;
};

// The config of a kind whose links all take one bandwidth and latency (ring, torus, complete,
// erdos_renyi, explicit): the fields `bandwidth` and `latency`, described after the kind's own
// fields unless the kind's Describe says otherwise; a kind with no other field adds nothing.
template <class Derived>
struct UniformLinksConfig : ConfigBase<Derived> {
  UniformLinks links;
  void Describe(ParamVisitor& v) override { links.Describe(v); }
};

// The first step of a kind of n nodes with uniform links (ring, torus, complete, erdos_renyi,
// explicit): checks n >= 1 ("nodes") and the links, in that order, and returns a shape of n
// hosts named `kind`, with no switches and no edges yet.
TopologyShape UniformShape(std::string_view kind, int n, const UniformLinks& links);

// Declares the link fields `<prefix>_bandwidth` (> 0, bit/s) and `<prefix>_latency` (LatencyRange,
// seconds) with their help texts; CheckLink checks the same pair.
void DescribeLink(ParamVisitor& v, std::string_view prefix, double& bandwidth_bps,
                  double& latency_s, std::string_view bandwidth_help,
                  std::string_view latency_help);

[[noreturn]] void ThrowTopologyError(std::string_view kind, std::string_view field,
                                     std::string_view message);
void CheckBandwidth(std::string_view kind, std::string_view field, double bandwidth_bps);
void CheckLatency(std::string_view kind, std::string_view field, double latency_s);
// Both checks for the link fields `<prefix>_bandwidth` and `<prefix>_latency`.
void CheckLink(std::string_view kind, std::string_view prefix, double bandwidth_bps,
               double latency_s);
// REQUIRES-style check on the node/worker count passed to Build(); `what` is "nodes"/"workers".
void CheckCount(std::string_view kind, std::string_view what, int n, int min);
// An optional per-item list must be empty or hold exactly `n` entries.
void CheckListSize(std::string_view kind, std::string_view field, const std::vector<double>& list,
                   size_t n, std::string_view per);

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_LINKS_H_
