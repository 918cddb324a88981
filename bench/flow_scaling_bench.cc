// Flow-model scaling benchmark (plain timers, never run as a test).
//
// A parameter-server round (ps_round: incast, then a unicast copy to every worker) of a small
// message (704 bits: 20 features in float32 plus a 64-bit header) at growing worker counts, on a
// 1 Gbps star (50 us links) and on a k = 64 fat tree, timed for:
//   flow      the flow model as shipped (incremental: the touched component only),
//   flow_ref  the same model re-solving every flow in flight at every change
//             (Network::UseReferenceFlowSolver, the pre-incremental solver; skipped above
//             --ref-max workers),
//   packet    the packet model with fair queueing,
//   message   the message model,
// with the topology's construction (routes) timed apart. Prints one row per (case, workers,
// model) and the wall-time ratios flow_ref / flow and packet / flow, measured in the same run.
// The simulated end times of flow and flow_ref must agree (they are printed side by side).
//
// Usage: flow_scaling_bench [--ref-max N] [--fat-tree] [workers ...]
//        (default workers: 250 500 1000 2000 4000 8000 16384; --ref-max 4000)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_timing.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology_fat_tree.h"
#include "sim/topology_star.h"
#include "sim/traffic.h"

namespace commsim {
namespace {

constexpr int64_t kMessageBits = 704;

struct Result {
  double wall_s = 0;
  SimTime end;
  uint64_t events = 0;
};

Result RunOnce(const Topology& t, NetworkModel model, bool reference) {
  Engine engine;
  NetworkOptions o;
  o.model = model;
  o.queue = QueueDiscipline::kFairQueue;
  Network net(engine, t, o);
  if (reference) net.UseReferenceFlowSolver();
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<MessageRecord> records =
      RunTraffic(engine, net, TrafficPattern::kPsRound, kMessageBits);
  Result r{bench::Seconds(t0), SimTime(), engine.events_processed()};
  for (const MessageRecord& m : records) r.end = std::max(r.end, m.delivered);
  return r;
}

void Report(const std::string& name, int n, const Topology& t, double build_s, int ref_max) {
  fmt::print("{:<10} {:>6} {:<9} {:>12.6f} {:>10} {:>10.4f}\n", name, n, "routes", 0.0, 0, build_s);
  const Result flow = RunOnce(t, NetworkModel::kFlow, false);
  fmt::print("{:<10} {:>6} {:<9} {:>12.6f} {:>10} {:>10.4f}\n", name, n, "flow", flow.end.seconds(),
             flow.events, flow.wall_s);
  std::optional<Result> ref;
  if (n <= ref_max) {
    ref = RunOnce(t, NetworkModel::kFlow, true);
    fmt::print("{:<10} {:>6} {:<9} {:>12.6f} {:>10} {:>10.4f}{}\n", name, n, "flow_ref",
               ref->end.seconds(), ref->events, ref->wall_s,
               ref->end == flow.end ? "" : "  END TIME DIFFERS");
  }
  const Result packet = RunOnce(t, NetworkModel::kPacket, false);
  fmt::print("{:<10} {:>6} {:<9} {:>12.6f} {:>10} {:>10.4f}\n", name, n, "packet",
             packet.end.seconds(), packet.events, packet.wall_s);
  const Result message = RunOnce(t, NetworkModel::kMessage, false);
  fmt::print("{:<10} {:>6} {:<9} {:>12.6f} {:>10} {:>10.4f}\n", name, n, "message",
             message.end.seconds(), message.events, message.wall_s);
  fmt::print(
      "{:<10} {:>6} ratios: flow_ref/flow {}  packet/flow {:.2f}  per flow event {:.0f} ns\n", name,
      n, ref ? fmt::format("{:.1f}", ref->wall_s / flow.wall_s) : std::string("-"),
      packet.wall_s / flow.wall_s, 1e9 * flow.wall_s / static_cast<double>(flow.events));
}

}  // namespace
}  // namespace commsim

int main(int argc, char** argv) {
  using namespace commsim;
  int ref_max = 4000;
  bool fat_tree = false;
  std::vector<int> workers;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--ref-max" && i + 1 < argc) {
      ref_max = std::atoi(argv[++i]);
    } else if (a == "--fat-tree") {
      fat_tree = true;
    } else {
      workers.push_back(std::atoi(argv[i]));
    }
  }
  if (workers.empty()) workers = {250, 500, 1000, 2000, 4000, 8000, 16384};
  fmt::print("ps_round of {} bits, 1 Gbps links; wall seconds\n", kMessageBits);
  fmt::print("{:<10} {:>6} {:<9} {:>12} {:>10} {:>10}\n", "case", "n", "model", "sim_end_s",
             "events", "wall_s");
  for (int n : workers) {
    StarConfig star_config;
    star_config.workers.worker_latency_s = 50e-6;
    star_config.server_latency_s = 50e-6;
    auto t0 = std::chrono::steady_clock::now();
    const Topology star = StarBuilder(star_config).Build(n);
    Report("star", n, star, bench::Seconds(t0), ref_max);
    if (!fat_tree) continue;
    FatTreeConfig ft;
    ft.k = 64;
    t0 = std::chrono::steady_clock::now();
    const Topology tree = FatTreeBuilder(ft).Build(n);
    Report("fat_tree64", n, tree, bench::Seconds(t0), ref_max);
  }
  return 0;
}
