// Network: moves messages over a Topology in simulated time, driven by an Engine.
//
// Time model (per directional link, ns-3 style):
//   - A link transmits one unit (a whole message, or one packet) at a time, FIFO in the order the
//     units reach it; transmit time = TransmitTime(unit bits, bandwidth) (rounded up to 1 ps);
//     the unit reaches the next node at transmit end + latency.
//   - mtu_bits = 0: messages travel whole, store-and-forward at every hop. mtu_bits > 0: a message
//     of M bits is ceil(M / mtu) packets (the last one shorter), each forwarded as soon as it has
//     arrived, so packets pipeline across hops. A 0-bit message is one 0-bit unit: it pays
//     latency only.
//   - A message is delivered (its handler runs, at the destination) when its last unit arrives.
//     A send to oneself delivers at Now(), through the engine, and crosses no link.
//   - Multicast sends one copy over each link of the union of the routes (a tree: routes from one
//     source share their prefixes), replicating where the routes split, e.g. at the switch.
//   - Only sizes travel here; SendMessage and MulticastMessage (sim/message_send.h) carry a
//     Message's payload with the send and hand it to the delivery handler.
// Per-link counters (LinkStats) grow as units are put on the link; busy_time sums transmit
// times, which never overlap on a link, so busy_time <= elapsed time and bits <= capacity.
// Limits: a message of more than options.max_packets_per_message packets, or a transmit or
// arrival time beyond the int64-picosecond range, throws SimulationLimitError naming the
// message, the link and what to change.
// Cost: O(1) events per unicast message on one link; about one event per packet per hop where
// a packet must be forwarded; the last hop only schedules the delivery.
// REQUIRES: the Network and the Topology outlive every engine run while messages are in flight.
#ifndef COMMSIM_SIM_NETWORK_H_
#define COMMSIM_SIM_NETWORK_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <vector>

#include "sim/engine.h"
#include "sim/handler.h"
#include "sim/limits.h"
#include "sim/time.h"
#include "sim/topology.h"

namespace commsim {

struct NetworkOptions {
  int64_t mtu_bits = 0;  // 0 = whole messages; else the largest packet, in bits
  // A message cut into more packets than this throws SimulationLimitError at Send/Multicast.
  int64_t max_packets_per_message = SimLimits::kDefaultMaxPacketsPerMessage;
};

struct LinkStats {
  int64_t bits = 0;
  SimTime busy_time;
  int64_t messages = 0;  // messages that crossed (or are crossing) this link
  int64_t packets = 0;   // units put on the link (= messages when mtu_bits = 0)
};

// One unit (packet or whole message) put on a link; recorded only when a trace sink is set.
struct HopRecord {
  uint64_t message = 0;
  int link = 0;
  int64_t packet = 0;  // -1: all packets of the message at once (the source's own link)
  SimTime start;
  SimTime end;
  auto operator<=>(const HopRecord&) const = default;
};

class Network {
 public:
  using MessageId = uint64_t;

  Network(Engine& engine, const Topology& topology, NetworkOptions options = {});
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // Sends wire_bits from src_host to dst_host; on_delivery runs at arrival of the last unit.
  // REQUIRES: hosts in range, wire_bits >= 0. Returns the message's id (1, 2, ... per network).
  MessageId Send(int src_host, int dst_host, int64_t wire_bits, Handler on_delivery);
  // One copy per link of the union of routes; on_delivery(dst) runs once per destination.
  // REQUIRES: distinct destinations, at least one.
  MessageId Multicast(int src_host, std::span<const int> dst_hosts, int64_t wire_bits,
                      std::function<void(int dst)> on_delivery);

  const LinkStats& link_stats(int link) const { return links_[link].stats; }
  // Bits handed to the network by senders (a multicast counts once; self-sends count zero).
  int64_t bits_sent_total() const { return bits_sent_total_; }
  // Bits summed over all links (a message crossing 2 links counts twice).
  int64_t link_bits_total() const;
  int64_t messages_in_flight() const { return in_flight_; }
  const Topology& topology() const { return topology_; }
  const NetworkOptions& options() const { return options_; }
  // Appends a HopRecord for every unit put on a link, until set to nullptr.
  void set_trace(std::vector<HopRecord>* sink) { trace_ = sink; }

 private:
  struct LinkState {
    SimTime free_at;
    SimTime latency;
    double bandwidth_bps = 0;
    SimTime mtu_transmit;  // transmit time of one full packet
    LinkStats stats;
  };
  // One link of a message's route tree; siblings are chained through next_sibling.
  struct Hop {
    int link = 0;
    int first_child = -1;
    int next_sibling = -1;
    int deliver_to = -1;  // host reached by this hop that takes delivery, or -1
    bool from_source = false;
    SimTime train_start;  // hops leaving the source: start of the whole packet train
  };
  struct Flow {
    MessageId id = 0;
    bool live = false;
    int64_t packets = 0;
    int64_t packet_bits = 0;  // all packets but the last
    int64_t last_bits = 0;
    int first_root = -1;  // first hop leaving the source
    int remaining = 0;    // destinations not yet delivered
    std::vector<Hop> hops;
    Handler on_unicast;
    std::function<void(int)> on_multicast;
  };

  uint32_t NewFlow(int64_t wire_bits);
  // Adds the route src -> dst to the flow's tree, marking its last hop for delivery to dst.
  void AddRoute(Flow& flow, int src, int dst);
  void Launch(uint32_t f);
  // Handles packet `packet` of flow f having crossed hop h (arrived at that link's far end).
  void Arrive(uint32_t f, int h, int64_t packet);
  void Forward(uint32_t f, int h, int64_t packet);
  void ScheduleArrival(SimTime at, uint32_t f, int h, int64_t packet);
  void Deliver(uint32_t f, int dst);
  SimTime UnitTransmit(const LinkState& link, int64_t bits) const;
  SimTime TrainEnd(const Flow& flow, const Hop& hop, int64_t packet) const;

  Engine& engine_;
  const Topology& topology_;
  NetworkOptions options_;
  std::vector<LinkState> links_;
  std::deque<Flow> flows_;  // stable addresses: handlers may Send while one is delivered
  std::vector<uint32_t> free_flows_;
  std::vector<int> hop_of_link_;  // scratch for AddRoute, -1 between uses
  MessageId next_id_ = 1;
  int64_t bits_sent_total_ = 0;
  int64_t in_flight_ = 0;
  std::vector<HopRecord>* trace_ = nullptr;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_NETWORK_H_
