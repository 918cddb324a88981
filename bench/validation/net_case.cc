#include "net_case.h"

#include <cmath>
#include <cstdio>
#include <deque>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

namespace validation {
namespace {

using nlohmann::json;

// Every host pair gets a route in SimGrid: keep the programs' memory sane.
constexpr int64_t kMaxNodes = 4096;

const std::set<std::string> kPatterns = {"incast",   "downlink",           "broadcast",
                                         "ps_round", "ps_round_multicast", "ring_allreduce"};

[[noreturn]] void Fail(const std::string& file, const std::string& pointer,
                       const std::string& expected, const json& got) {
  throw CaseError(file + ": " + pointer + ": expected " + expected + ", got " + got.dump());
}

const json& Member(const std::string& file, const json& object, const std::string& pointer,
                   const char* key) {
  if (!object.is_object()) Fail(file, pointer.empty() ? "/" : pointer, "an object", object);
  if (!object.contains(key)) throw CaseError(file + ": " + pointer + "/" + key + ": missing");
  return object.at(key);
}

int64_t Integer(const std::string& file, const json& value, const std::string& pointer, int64_t min,
                int64_t max) {
  if (!value.is_number() || std::trunc(value.get<double>()) != value.get<double>() ||
      value.get<double>() < static_cast<double>(min) ||
      value.get<double>() > static_cast<double>(max)) {
    Fail(file, pointer, "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]",
         value);
  }
  return value.get<int64_t>();
}

double Positive(const std::string& file, const json& value, const std::string& pointer,
                bool zero_ok) {
  if (!value.is_number() || value.get<double>() < 0 || (!zero_ok && value.get<double>() == 0)) {
    Fail(file, pointer, zero_ok ? "a number >= 0" : "a number > 0", value);
  }
  return value.get<double>();
}

// Per-edge values: the list when present (one per edge), else the uniform key.
std::vector<double> PerEdge(const std::string& file, const json& topo, const char* list,
                            const char* uniform, size_t edges, bool zero_ok) {
  const std::string base = "/topology/";
  if (topo.contains(list) && !topo.at(list).empty()) {
    const json& values = topo.at(list);
    if (!values.is_array() || values.size() != edges) {
      Fail(file, base + list, "an array of " + std::to_string(edges) + " numbers", values);
    }
    std::vector<double> out;
    for (size_t i = 0; i < edges; ++i) {
      out.push_back(Positive(file, values[i], base + list + "/" + std::to_string(i), zero_ok));
    }
    return out;
  }
  const double v =
      Positive(file, Member(file, topo, "/topology", uniform), base + uniform, zero_ok);
  return std::vector<double>(edges, v);
}

void ReadEdges(const std::string& file, const json& topo, NetCase& net) {
  const json& flat = Member(file, topo, "/topology", "edges");
  if (!flat.is_array() || flat.size() % 2 != 0 || flat.empty()) {
    Fail(file, "/topology/edges", "a non-empty array of node-id pairs", flat);
  }
  const size_t count = flat.size() / 2;
  const auto bandwidths = PerEdge(file, topo, "bandwidths", "bandwidth", count, false);
  const auto latencies = PerEdge(file, topo, "latencies", "latency", count, true);
  for (size_t e = 0; e < count; ++e) {
    Edge edge;
    for (size_t end = 0; end < 2; ++end) {
      const size_t i = 2 * e + end;
      const std::string pointer = "/topology/edges/" + std::to_string(i);
      const auto node = static_cast<int>(Integer(file, flat[i], pointer, 0, kMaxNodes));
      if (node >= net.nodes()) {
        Fail(file, pointer, "a node id below " + std::to_string(net.nodes()), flat[i]);
      }
      (end == 0 ? edge.a : edge.b) = node;
    }
    edge.bandwidth_bps = bandwidths[e];
    edge.latency_s = latencies[e];
    net.edges.push_back(edge);
  }
}

}  // namespace

std::vector<int> NetCase::workers() const {
  std::vector<int> out;
  for (int h = 0; h < hosts; ++h) {
    if (h != server) out.push_back(h);
  }
  return out;
}

NetCase LoadNetCase(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CaseError(path + ": cannot open the case file");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error& e) {
    throw CaseError(path + ": not JSON: " + e.what());
  }
  if (!doc.is_object()) throw CaseError(path + ": expected a JSON object, got " + doc.dump());
  NetCase net;
  net.hosts =
      static_cast<int>(Integer(path, Member(path, doc, "", "workers"), "/workers", 1, kMaxNodes));
  net.message_bits =
      Integer(path, Member(path, doc, "", "message"), "/message", 0, int64_t{1} << 50);
  const json& pattern = Member(path, doc, "", "pattern");
  if (!pattern.is_string() || !kPatterns.contains(pattern.get<std::string>())) {
    Fail(path, "/pattern",
         "one of incast, downlink, broadcast, ps_round, ps_round_multicast, ring_allreduce",
         pattern);
  }
  net.pattern = pattern.get<std::string>();
  const json& topo = Member(path, doc, "", "topology");
  const json& name = Member(path, topo, "/topology", "name");
  if (name != "explicit") Fail(path, "/topology/name", "\"explicit\"", name);
  net.switches =
      topo.contains("switches")
          ? static_cast<int>(Integer(path, topo.at("switches"), "/topology/switches", 0, kMaxNodes))
          : 0;
  const int64_t server = topo.contains("server")
                             ? Integer(path, topo.at("server"), "/topology/server", -1, kMaxNodes)
                             : -1;
  if (server >= net.hosts) {
    Fail(path, "/topology/server", "-1 or a host id below " + std::to_string(net.hosts),
         topo.at("server"));
  }
  net.server = static_cast<int>(server);
  const bool needs_server = net.pattern != "ring_allreduce";
  if (needs_server != (net.server >= 0)) {
    Fail(path, "/topology/server",
         needs_server ? "a server for pattern " + net.pattern : "-1 for ring_allreduce",
         topo.contains("server") ? topo.at("server") : json(-1));
  }
  ReadEdges(path, topo, net);
  const std::vector<int> hops = HopsTo(net, 0);
  for (int v = 0; v < net.nodes(); ++v) {
    if (hops[static_cast<size_t>(v)] < 0) {
      Fail(path, "/topology/edges", "a connected graph (node " + std::to_string(v) + " is cut off)",
           topo.at("edges"));
    }
  }
  return net;
}

std::vector<int> HopsTo(const NetCase& net, int root) {
  std::vector<int> hops(static_cast<size_t>(net.nodes()), -1);
  std::deque<int> queue = {root};
  hops[static_cast<size_t>(root)] = 0;
  while (!queue.empty()) {
    const int u = queue.front();
    queue.pop_front();
    for (const Edge& e : net.edges) {
      for (const auto& [from, to] : {std::pair{e.a, e.b}, std::pair{e.b, e.a}}) {
        if (from == u && hops[static_cast<size_t>(to)] < 0) {
          hops[static_cast<size_t>(to)] = hops[static_cast<size_t>(u)] + 1;
          queue.push_back(to);
        }
      }
    }
  }
  return hops;
}

std::vector<int> Route(const NetCase& net, int src, int dst) {
  const std::vector<int> hops = HopsTo(net, dst);
  std::vector<int> links;
  for (int u = src; u != dst;) {
    int next_link = -1;
    for (int link = 0; link < 2 * static_cast<int>(net.edges.size()) && next_link < 0; ++link) {
      if (net.link_from(link) == u &&
          hops[static_cast<size_t>(net.link_to(link))] == hops[static_cast<size_t>(u)] - 1) {
        next_link = link;
      }
    }
    links.push_back(next_link);
    u = net.link_to(next_link);
  }
  return links;
}

int MainWithErrors(int argc, char** argv, int (*run)(int, char**)) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

}  // namespace validation
