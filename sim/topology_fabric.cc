#include "sim/topology_fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kSlotChoices = {kServerLast, kServerNone};
constexpr std::array<std::string_view, 3> kTreeChoices = {kServerCore, kServerLast, kServerNone};

}  // namespace

std::span<const std::string_view> SlotServerChoices() { return kSlotChoices; }
std::span<const std::string_view> TreeServerChoices() { return kTreeChoices; }

std::string FabricHosts::Describe() const {
  const char* plural = workers == 1 ? "" : "s";
  return has_server ? fmt::format("{} worker{} + the server", workers, plural)
                    : fmt::format("{} host{}", workers, plural);
}

FabricHosts PlaceHosts(std::string_view kind, int n, std::string_view server,
                       std::span<const std::string_view> choices,
                       std::initializer_list<TierLinks> tiers) {
  for (const TierLinks& tier : tiers) tier.links.Check(kind, tier.prefix);
  CheckCount(kind, "workers", n, 1);
  if (std::find(choices.begin(), choices.end(), server) == choices.end()) {
    ThrowTopologyError(
        kind, "server",
        fmt::format("expected one of {}, got \"{}\"", fmt::join(choices, ", "), server));
  }
  FabricHosts hosts;
  hosts.workers = n;
  hosts.has_server = server != kServerNone;
  hosts.server_in_slot = server == kServerLast;
  return hosts;
}

TopologyShape FabricShape(std::string kind, const FabricHosts& hosts) {
  TopologyShape shape;
  shape.kind = std::move(kind);
  shape.num_hosts = hosts.total();
  const int n = hosts.workers;
  for (int i = 0; i < n; ++i) {
    shape.node_names.push_back(hosts.has_server ? fmt::format("w{}", i) : fmt::format("h{}", i));
  }
  if (!hosts.has_server) return shape;
  shape.servers = {n};
  shape.node_names.push_back("server");
  shape.neighbours.resize(n + 1);
  for (int i = 0; i < n; ++i) {
    shape.neighbours[i] = {n};
    shape.neighbours[n].push_back(i);
  }
  return shape;
}

}  // namespace commsim
