// Traffic patterns: fixed message exchanges on a Network, for `commsim net` and closed-form tests.
//
// RunTraffic sends the pattern's messages starting at engine.Now(), runs the engine until it is
// idle, and returns one record per (message, destination) in the order the sends were made.
// Workers are Topology::WorkerHosts(); patterns marked PS require a server (the first, server()).
//   incast          PS: every worker sends M bits to the server at once.
//   downlink        PS: the server sends M bits to each worker, one unicast copy each, in order.
//   broadcast       PS: the server multicasts M bits to all workers (one copy per link).
//   ps_round        PS: incast; when the last worker's message has arrived, downlink.
//   ps_round_multicast  PS: incast, then broadcast.
//   neighbours      every host sends M bits to each of its neighbours at once.
//   ring_allreduce  hosts 0..H-1 form a logical ring; 2(H-1) steps, in each every host sends
//                   floor(M/H) bits to the next host, starting step s+1 when step s's chunk has
//                   arrived from the previous host (reduce-scatter then all-gather).
#ifndef COMMSIM_SIM_TRAFFIC_H_
#define COMMSIM_SIM_TRAFFIC_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine.h"
#include "sim/network.h"

namespace commsim {

enum class TrafficPattern {
  kIncast,
  kDownlink,
  kBroadcast,
  kPsRound,
  kPsRoundMulticast,
  kNeighbours,
  kRingAllReduce,
};

// Names as used in specs ("incast", ...), in enum order.
std::span<const std::string_view> TrafficPatternNames();
std::optional<TrafficPattern> ParseTrafficPattern(std::string_view name);
// True when the pattern needs a topology with a server.
bool NeedsServer(TrafficPattern pattern);

struct MessageRecord {
  uint64_t message = 0;  // Network::MessageId
  int src = 0;
  int dst = 0;
  int64_t bits = 0;
  std::string phase;  // "up", "down", "neighbour", "step 3", ...
  SimTime sent;
  SimTime delivered;
};

// REQUIRES: NeedsServer(pattern) implies network.topology().server(); message_bits >= 0.
std::vector<MessageRecord> RunTraffic(Engine& engine, Network& network, TrafficPattern pattern,
                                      int64_t message_bits);

}  // namespace commsim

#endif  // COMMSIM_SIM_TRAFFIC_H_
