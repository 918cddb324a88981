// Test helpers for the network tests (sim/*network*_test.cc, fair queueing, traffic, message
// sends): short time constructors, the reference transmit-time formula, small topologies and a
// random traffic pattern. Header-only; tests only.
#ifndef COMMSIM_SIM_NETWORK_TEST_UTIL_H_
#define COMMSIM_SIM_NETWORK_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "base/rng.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/time.h"
#include "sim/topology_graph.h"
#include "sim/topology_star.h"

// Not commsim::testing: inside namespace commsim that name would hide gtest's ::testing.
namespace commsim::net_test {

inline SimTime Sec(double s) { return SimTime::FromSeconds(s); }
inline SimTime Ps(int64_t ps) { return SimTime::FromPs(ps); }
// Picoseconds as the seconds a record reports (ps x 1e-12 in double).
inline double Seconds(int64_t ps) { return static_cast<double>(ps) * 1e-12; }

// The reference transmit time: ceil(bits x 1e12 / bandwidth) picoseconds in 128-bit integers
// (the network's own TransmitTime is what is under test).
inline int64_t CeilPs(int64_t bits, int64_t bandwidth_bps) {
  __extension__ typedef unsigned __int128 U128;
  const U128 num = static_cast<U128>(bits) * 1'000'000'000'000u;
  return static_cast<int64_t>((num + static_cast<U128>(bandwidth_bps) - 1) / bandwidth_bps);
}

// A message of `bits` cut into packets of `mtu` (0: whole), each rounded up on its own, sent back
// to back on one link.
inline int64_t TrainPs(int64_t bits, int64_t mtu, int64_t bandwidth_bps) {
  if (mtu == 0) return CeilPs(bits, bandwidth_bps);
  return (bits / mtu) * CeilPs(mtu, bandwidth_bps) + CeilPs(bits % mtu, bandwidth_bps);
}

// A path h0 - h1 - ... - h(n-1) with equal links.
inline Topology Line(int n, double bandwidth_bps, double latency_s) {
  ExplicitConfig c;
  for (int i = 0; i + 1 < n; ++i) c.edges.insert(c.edges.end(), {double(i), double(i + 1)});
  c.links.bandwidth_bps = bandwidth_bps;
  c.links.latency_s = latency_s;
  return ExplicitBuilder(c).Build(n);
}

// Hosts 0..n-1 on a star through one switch: worker links and the server's link (host 0's).
inline Topology Star(int n, double worker_bps, double worker_latency_s, double server_bps,
                     double server_latency_s) {
  StarConfig c;
  c.workers.worker_bandwidth_bps = worker_bps;
  c.workers.worker_latency_s = worker_latency_s;
  c.server_bandwidth_bps = server_bps;
  c.server_latency_s = server_latency_s;
  return StarBuilder(c).Build(n);
}

// 300 messages of up to 40,000 bits between random hosts of `topology` at random times in the
// first 200 us (seeded from DeriveSeed(5, 0, "traffic")); runs the engine until all are in.
inline void RunRandomTraffic(Engine& engine, Network& net, const Topology& topology) {
  const uint64_t hosts = static_cast<uint64_t>(topology.num_hosts());
  Rng rng(DeriveSeed(5, 0, "traffic"));
  for (int i = 0; i < 300; ++i) {
    const SimTime at = SimTime::FromNs(static_cast<int64_t>(rng.UniformInt(200'000)));
    const int s = static_cast<int>(rng.UniformInt(hosts));
    const int d = static_cast<int>(rng.UniformInt(hosts));
    const int64_t bits = static_cast<int64_t>(rng.UniformInt(40'000));
    engine.ScheduleAt(at, [&net, s, d, bits] { net.Send(s, d, bits, [] {}); });
  }
  engine.Run();
}

// Hosts 1 and 0 of a two-host `net` play ping-pong with 1000-bit messages, each sent from the
// delivery handler of the one before, until the handler has been called `calls` times (the first
// call sends from host 1); runs the engine. Returns the calls made.
inline int PingPongFromDeliveries(Engine& engine, Network& net, int calls) {
  int made = 0;
  std::function<void(int)> bounce = [&](int at) {
    if (++made == calls) return;
    net.Send(at, 1 - at, 1000, [&, at] { bounce(1 - at); });
  };
  bounce(1);
  engine.Run();
  return made;
}

}  // namespace commsim::net_test

#endif  // COMMSIM_SIM_NETWORK_TEST_UTIL_H_
