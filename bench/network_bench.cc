// Network model benchmark (plain timers, never run as a test).
//
// Runs each network model on the same traffic and prints the simulated end time, engine events,
// units put on links and the wall time, then the wall-time ratio of the packet model (fair
// queueing) to the flow model:
//   - incast of 44.7 MB from each of 64 workers to the server of a 1 Gbps star;
//   - a parameter-server round (incast, then unicast downlink) at ResNet-18 size (357 Mbit);
//   - ring all-reduce and torus neighbour exchange at ResNet-18 size.
// Packets are 1500 bytes (protocol none).
//
// Usage: network_bench [workers]   (default 64)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"
#include "sim/traffic.h"

namespace commsim {
namespace {

constexpr int64_t kIncastBits = 44'700'000 * 8;
constexpr int64_t kResNetBits = 357'000'000;
constexpr int64_t kMtuBits = 12'000;

struct Variant {
  const char* name;
  NetworkModel model;
  QueueDiscipline queue;
};
constexpr Variant kVariants[] = {
    {"flow", NetworkModel::kFlow, QueueDiscipline::kFairQueue},
    {"packet_fq", NetworkModel::kPacket, QueueDiscipline::kFairQueue},
    {"packet_fifo", NetworkModel::kPacket, QueueDiscipline::kFifo},
    {"message", NetworkModel::kMessage, QueueDiscipline::kFifo},
};

struct Measure {
  double wall_s = 0;
  SimTime end;
  uint64_t events = 0;
  int64_t units = 0;
};

Measure RunOnce(const Topology& t, TrafficPattern pattern, int64_t bits, const Variant& v) {
  Engine engine;
  NetworkOptions o;
  o.model = v.model;
  o.queue = v.queue;
  o.mtu_bits = kMtuBits;
  o.max_packets_per_message = int64_t{1} << 40;
  Network net(engine, t, o);
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<MessageRecord> records = RunTraffic(engine, net, pattern, bits);
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  Measure m{dt.count(), SimTime(), engine.events_processed(), 0};
  for (const MessageRecord& r : records) m.end = std::max(m.end, r.delivered);
  for (size_t l = 0; l < t.links().size(); ++l) {
    m.units += net.link_stats(static_cast<int>(l)).packets;
  }
  return m;
}

void Report(const std::string& name, const Topology& t, TrafficPattern pattern, int64_t bits) {
  double flow_s = 0, packet_s = 0;
  for (const Variant& v : kVariants) {
    const Measure m = RunOnce(t, pattern, bits, v);
    if (v.model == NetworkModel::kFlow) flow_s = m.wall_s;
    if (v.model == NetworkModel::kPacket && v.queue == QueueDiscipline::kFairQueue) {
      packet_s = m.wall_s;
    }
    fmt::print("{:<26} {:<12} {:>12.6f} {:>11} {:>11} {:>10.4f}\n", name, v.name, m.end.seconds(),
               m.events, m.units, m.wall_s);
  }
  fmt::print("{:<26} packet_fq / flow wall time: {:.0f}x\n", name, packet_s / flow_s);
}

}  // namespace
}  // namespace commsim

int main(int argc, char** argv) {
  using namespace commsim;
  const int n = argc > 1 ? std::atoi(argv[1]) : 64;
  fmt::print("{} workers/nodes, 1 Gbps links, mtu {} bits\n", n, kMtuBits);
  fmt::print("{:<26} {:<12} {:>12} {:>11} {:>11} {:>10}\n", "case", "model", "sim_end_s", "events",
             "link_units", "wall_s");
  StarConfig star_config;
  star_config.workers.worker_latency_s = 50e-6;
  star_config.server_latency_s = 50e-6;
  const Topology star = StarBuilder(star_config).Build(n);
  Report("star incast 44.7MB", star, TrafficPattern::kIncast, kIncastBits);
  Report("star ps_round 357Mbit", star, TrafficPattern::kPsRound, kResNetBits);
  const Topology ring = RingBuilder(RingConfig{}).Build(16);
  Report("ring(16) allreduce 357Mbit", ring, TrafficPattern::kRingAllReduce, kResNetBits);
  const Topology torus = TorusBuilder(TorusConfig{}).Build(16);
  Report("torus(16) neighbours 357Mb", torus, TrafficPattern::kNeighbours, kResNetBits);
  return 0;
}
