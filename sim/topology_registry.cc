#include "sim/topology_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/params_text.h"
#include "sim/topology_dumbbell.h"
#include "sim/topology_fat_tree.h"
#include "sim/topology_graph.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"
#include "sim/topology_tree.h"

namespace commsim {
namespace {

Registry<TopologyBuilder> MakeRegistry() {
  Registry<TopologyBuilder> r;
  r.Add<StarBuilder, StarConfig>("star", "n workers and a server joined by one switch");
  r.Add<StarDirectBuilder, StarDirectConfig>("star_direct",
                                             "n workers, each with its own link to the server");
  r.Add<RingBuilder, RingConfig>("ring", "n nodes in a cycle");
  r.Add<TorusBuilder, TorusConfig>("torus", "n = rows x cols nodes on a 2-D grid with wrap-around");
  r.Add<CompleteBuilder, CompleteConfig>("complete", "n nodes, every pair linked");
  r.Add<ErdosRenyiBuilder, ErdosRenyiConfig>("erdos_renyi",
                                             "random G(n, p) graph, redrawn until connected");
  r.Add<ExplicitBuilder, ExplicitConfig>(
      "explicit", "n hosts (+ the server, + switches) joined by an edge list");
  r.Add<TreeBuilder, TreeConfig>(
      "tree", "racks of hosts under top-of-rack switches joined by one core switch");
  r.Add<FatTreeBuilder, FatTreeConfig>(
      "fat_tree", "k-ary fat tree: k pods of edge and aggregation switches, (k/2)^2 cores");
  r.Add<DumbbellBuilder, DumbbellConfig>("dumbbell",
                                         "two switches of hosts joined by one bottleneck link");
  return r;
}

}  // namespace

const Registry<TopologyBuilder>& TopologyRegistry() {
  static const Registry<TopologyBuilder> registry = MakeRegistry();
  return registry;
}

Topology BuildTopology(const ComponentSpec& spec, int n) {
  return TopologyRegistry().Make(spec)->Build(n);
}

namespace {

// How a kind places a server: its default builds one (at 4 hosts), and whether it has a `server`
// key (with its fixed choices, if any).
struct ServerPlacement {
  std::string name;
  bool default_server = false;
  bool buildable = false;  // its default builds (an edge list's does not: it has none)
  bool server_key = false;
  bool server_none = false;  // the key offers "none"
};

std::vector<ServerPlacement> Placements() {
  std::vector<ServerPlacement> out;
  for (const Registry<TopologyBuilder>::Entry& entry : TopologyRegistry().entries()) {
    ServerPlacement p{.name = entry.name};
    const std::unique_ptr<Config> config = entry.make_config();
    try {
      p.default_server = entry.make(*config)->Build(4).server().has_value();
      p.buildable = true;
    } catch (const UserError&) {
    }
    for (const ParamRow& row : ParamRows(*config)) {
      if (row.key != "server") continue;
      p.server_key = true;
      p.server_none =
          std::find(row.choices.begin(), row.choices.end(), "none") != row.choices.end();
    }
    out.push_back(std::move(p));
  }
  return out;
}

// "a, b, or c, d <qualifier>"; without qualified names "a, b"; without plain ones "c, d <q>".
std::string Phrase(const std::vector<std::string>& plain, const std::vector<std::string>& qualified,
                   std::string_view qualifier) {
  std::string out = fmt::format("{}", fmt::join(plain, ", "));
  if (qualified.empty()) return out;
  if (!out.empty()) out += ", or ";
  return out + fmt::format("{} {}", fmt::join(qualified, ", "), qualifier);
}

}  // namespace

std::string ServerTopologyList() {
  std::vector<std::string> plain, qualified;
  for (const ServerPlacement& p : Placements()) {
    if (p.default_server) {
      plain.push_back(p.name);
    } else if (p.server_key) {
      qualified.push_back(p.name);
    }
  }
  return Phrase(plain, qualified, "with \"server\"");
}

std::string GraphTopologyList() {
  std::vector<std::string> plain, qualified;
  for (const ServerPlacement& p : Placements()) {
    if (!p.default_server && (p.buildable || p.server_key)) {
      plain.push_back(p.name);
    } else if (p.default_server && p.server_none) {
      qualified.push_back(p.name);
    }
  }
  return Phrase(plain, qualified, "with \"server\": \"none\"");
}

}  // namespace commsim
