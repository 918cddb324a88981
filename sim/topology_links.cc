#include "sim/topology_links.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "base/error.h"

namespace commsim {

Range LatencyRange() { return Range::Closed(0.0, kMaxLatencyS); }

void UniformLinks::Describe(ParamVisitor& v) {
  v.Real("bandwidth", bandwidth_bps, Range::Positive(), "bandwidth of every link, each direction",
         Unit::kBitsPerSecond);
  v.Real("latency", latency_s, LatencyRange(), "one-way latency of every link", Unit::kSeconds);
}

void UniformLinks::Check(std::string_view kind) const {
  CheckBandwidth(kind, "bandwidth", bandwidth_bps);
  CheckLatency(kind, "latency", latency_s);
}

TopologyShape UniformShape(std::string_view kind, int n, const UniformLinks& links) {
  CheckCount(kind, "nodes", n, 1);
  links.Check(kind);
  TopologyShape shape;
  shape.kind = std::string(kind);
  shape.num_hosts = n;
  return shape;
}

void LinkValues::Describe(ParamVisitor& v, std::string_view prefix, std::string_view bandwidth_help,
                          std::string_view latency_help) {
  DescribeLink(v, prefix, bandwidth_bps, latency_s, bandwidth_help, latency_help);
}

void LinkValues::Check(std::string_view kind, std::string_view prefix) const {
  CheckLink(kind, prefix, bandwidth_bps, latency_s);
}

void DescribeLink(ParamVisitor& v, std::string_view prefix, double& bandwidth_bps,
                  double& latency_s, std::string_view bandwidth_help,
                  std::string_view latency_help) {
  v.Real(fmt::format("{}_bandwidth", prefix), bandwidth_bps, Range::Positive(), bandwidth_help,
         Unit::kBitsPerSecond);
  v.Real(fmt::format("{}_latency", prefix), latency_s, LatencyRange(), latency_help,
         Unit::kSeconds);
}

void CheckLink(std::string_view kind, std::string_view prefix, double bandwidth_bps,
               double latency_s) {
  CheckBandwidth(kind, fmt::format("{}_bandwidth", prefix), bandwidth_bps);
  CheckLatency(kind, fmt::format("{}_latency", prefix), latency_s);
}

void ThrowTopologyError(std::string_view kind, std::string_view field, std::string_view message) {
  throw UserError(fmt::format("topology {}: {}: {}", kind, field, message));
}

void CheckBandwidth(std::string_view kind, std::string_view field, double bandwidth_bps) {
  if (!(bandwidth_bps > 0) || !std::isfinite(bandwidth_bps)) {
    ThrowTopologyError(kind, field, fmt::format("must be > 0 bit/s, got {}", bandwidth_bps));
  }
}

void CheckLatency(std::string_view kind, std::string_view field, double latency_s) {
  if (!(latency_s >= 0) || !(latency_s <= kMaxLatencyS)) {
    ThrowTopologyError(kind, field,
                       fmt::format("must be in [0, {}] s (the simulated-time limit), got {}",
                                   kMaxLatencyS, latency_s));
  }
}

void CheckCount(std::string_view kind, std::string_view what, int n, int min) {
  if (n < min) ThrowTopologyError(kind, what, fmt::format("must be >= {}, got {}", min, n));
}

void CheckListSize(std::string_view kind, std::string_view field, const std::vector<double>& list,
                   size_t n, std::string_view per) {
  if (!list.empty() && list.size() != n) {
    ThrowTopologyError(
        kind, field,
        fmt::format("expected {} values (one per {}) or none, got {}", n, per, list.size()));
  }
}

}  // namespace commsim
