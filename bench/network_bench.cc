// Network throughput benchmark (plain timers, never run as a test).
//
// Runs message patterns of ResNet-18 size (357 Mbit) with 1500-byte packets and reports, per
// pattern, the simulated end time, engine events, packet-hops (units put on links) and wall-clock
// rates. Baseline in the same run: the same pattern with whole messages (mtu 0), which needs O(1)
// events per message per hop, so the ratio shows the cost of packet-level pipelining.
//
// Usage: network_bench [workers]   (default 16)
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"
#include "sim/traffic.h"

namespace commsim {
namespace {

constexpr int64_t kMessageBits = 357'000'000;
constexpr int64_t kMtuBits = 12'000;

struct Measure {
  double wall_s = 0;
  SimTime end;
  uint64_t events = 0;
  int64_t packet_hops = 0;
};

Measure RunOnce(const Topology& t, TrafficPattern pattern, int64_t mtu) {
  Engine engine;
  Network net(engine, t, NetworkOptions{mtu});
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<MessageRecord> records = RunTraffic(engine, net, pattern, kMessageBits);
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  Measure m{dt.count(), SimTime(), engine.events_processed(), 0};
  for (const MessageRecord& r : records) m.end = std::max(m.end, r.delivered);
  for (size_t l = 0; l < t.links().size(); ++l) {
    m.packet_hops += net.link_stats(static_cast<int>(l)).packets;
  }
  return m;
}

void Report(const char* name, const Topology& t, TrafficPattern pattern) {
  const Measure packets = RunOnce(t, pattern, kMtuBits);
  const Measure whole = RunOnce(t, pattern, 0);
  fmt::print("{:<22} {:>10.6f} {:>10} {:>11} {:>8.3f} {:>12.3e} {:>12.3e} {:>10.6f} {:>9.0f}x\n",
             name, packets.end.seconds(), packets.events, packets.packet_hops, packets.wall_s,
             packets.packet_hops / packets.wall_s, packets.events / packets.wall_s, whole.wall_s,
             packets.wall_s / whole.wall_s);
}

}  // namespace
}  // namespace commsim

int main(int argc, char** argv) {
  using namespace commsim;
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  fmt::print("{} workers/nodes, {} bit messages, mtu {} bits\n", n, kMessageBits, kMtuBits);
  fmt::print("{:<22} {:>10} {:>10} {:>11} {:>8} {:>12} {:>12} {:>10} {:>10}\n", "pattern",
             "sim_end_s", "events", "pkt_hops", "wall_s", "pkt_hops/s", "events/s", "whole_s",
             "pkt/whole");
  const Topology star = StarBuilder(StarConfig{}).Build(n);
  Report("star incast", star, TrafficPattern::kIncast);
  Report("star ps_round", star, TrafficPattern::kPsRound);
  Report("star ps_round_mcast", star, TrafficPattern::kPsRoundMulticast);
  const Topology ring = RingBuilder(RingConfig{}).Build(n);
  Report("ring allreduce", ring, TrafficPattern::kRingAllReduce);
  Report("ring neighbours", ring, TrafficPattern::kNeighbours);
  const Topology torus = TorusBuilder(TorusConfig{}).Build(n);
  Report("torus neighbours", torus, TrafficPattern::kNeighbours);
  return 0;
}
