// Network: moves messages over a Topology in simulated time, driven by an Engine.
//
// Three models (NetworkOptions::model), one interface: Send/Multicast a message of M bits, its
// handler runs when the message has arrived. Protocol overhead (sim/protocol.h) turns M into
// packets of wire bits first; every model charges links those wire bits.
//
// kPacket, kMessage (per directional link, ns-3 style):
//   - A link transmits one unit (a whole message, or one packet) at a time; transmit time =
//     TransmitTime(unit wire bits, bandwidth) (rounded up to 1 ps); the unit reaches the next
//     node at transmit end + latency.
//   - kMessage: messages travel whole, store-and-forward at every hop. kPacket: a message is
//     PacketFormat::Packets(M) packets (the last one shorter), each forwarded as soon as it has
//     arrived, so packets pipeline across hops. A 0-bit message is one 0-bit unit: it pays
//     latency only.
//   - Queueing at a link: kFifo serves units in the order they reach the link (a message's
//     packets stay together); kFairQueue (packets only) serves the messages waiting at the link
//     by deficit round robin with a quantum of one full packet: concurrent messages interleave
//     packet by packet, and packets of unequal sizes still share the link's bits equally. The
//     source's own link queues all of a message's packets at once, so n unicast copies from one
//     host leave interleaved.
// kFlow (flow level, SimGrid's CM02 without correction factors):
//   - A message is one flow over its route; it starts taking bandwidth once its route latency
//     has elapsed; its rate is its max-min fair share (sim/max_min.h) of every link it crosses,
//     recomputed whenever a flow starts or ends; it completes when its last wire bit has drained.
//     So a flow alone completes at latency + wire bits / bandwidth, and n equal flows through one
//     bottleneck of bandwidth B at latency + n * wire bits / B.
//   - Integer time: a completion instant is rounded up to the next picosecond; remaining bits
//     are carried as doubles updated with + - * / only (IEEE-754, correctly rounded), so a run
//     is the same on every platform that does not fuse multiply-adds.
//   - Multicast is one flow over the union tree with one rate, limited by every link it crosses;
//     it starts after the shortest route latency, and destination d is delivered at drain end +
//     (latency of d's route - the shortest).
// All models:
//   - A message is delivered (its handler runs, at the destination) when its last unit arrives.
//     A send to oneself delivers at Now(), through the engine, and crosses no link.
//   - Multicast sends one copy over each link of the union of the routes (a tree: routes from one
//     source share their prefixes), replicating where the routes split, e.g. at the switch.
//   - Only sizes travel here; SendMessage and MulticastMessage (algorithms/message_send.h) carry a
//     Message's payload with the send and hand it to the delivery handler.
// TCP start-up (protocol kTcp): tcp_handshake delays every message by one round trip (twice its
// longest route latency) in every model; tcp_slow_start (kFlow only; other models ignore it)
// caps a flow at window / round trip, the window starting at kTcpInitialWindow full packets and
// doubling every round trip until the cap reaches the route's slowest link.
// Per-link counters (LinkStats) grow as units are put on the link (kFlow: the whole message when
// its flow starts); busy_time sums transmit times at full bandwidth.
// Limits: a message of more than options.max_packets_per_message packets (packet models), or a
// time beyond the int64-picosecond range, throws SimulationLimitError naming what to change.
// Cost: kMessage and kPacket/kFifo: O(1) events per unicast message on one link, about one event
// per packet per hop where a packet must be forwarded. kPacket/kFairQueue: two events per packet
// per hop. kFlow: two events per message plus, at every instant where flows start or end, a
// max-min solve over the flows connected to them through shared links (O(pairs log links),
// sim/max_min.h), heap updates for the completion times of those flows only, and one pass draining
// the bits of every flow in flight (a vectorised multiply-subtract per flow; draining every flow at
// every event keeps the floating-point history of each flow's remaining bits fixed). REQUIRES: the
// Network and the Topology outlive every engine run while messages are in flight.
#ifndef COMMSIM_SIM_NETWORK_H_
#define COMMSIM_SIM_NETWORK_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "base/limits.h"
#include "sim/engine.h"
#include "sim/handler.h"
#include "sim/indexed_heap.h"
#include "sim/max_min.h"
#include "sim/protocol.h"
#include "sim/time.h"
#include "sim/topology.h"

namespace commsim {

enum class NetworkModel { kMessage, kPacket, kFlow };
enum class QueueDiscipline { kFairQueue, kFifo };

inline constexpr std::array<std::string_view, 3> kNetworkModelNames = {"message", "packet", "flow"};
inline constexpr std::array<std::string_view, 2> kQueueNames = {"fq", "fifo"};

struct NetworkOptions {
  // kPacket: the packet size (protocol none) or the IP MTU (sim/protocol.h); 0 = the protocol's
  // default (1500 bytes, RoCE 4096). kFlow, kMessage: only cuts the message into packets to count
  // their protocol overhead. kMessage with protocol none ignores it.
  int64_t mtu_bits = 0;
  // kPacket: a message cut into more packets than this throws SimulationLimitError at Send.
  int64_t max_packets_per_message = SimLimits::kDefaultMaxPacketsPerMessage;
  // Unset: what a Network was before models existed, kMessage when mtu_bits is 0, else kPacket
  // with kFifo queues (queue is then ignored). Network::options() shows the model chosen.
  std::optional<NetworkModel> model = std::nullopt;
  QueueDiscipline queue = QueueDiscipline::kFairQueue;  // kPacket only
  ProtocolOptions protocol = {};
};

struct LinkStats {
  int64_t bits = 0;
  SimTime busy_time;
  int64_t messages = 0;  // messages that crossed (or are crossing) this link
  int64_t packets = 0;   // units put on the link (= messages for kMessage)
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
  // The engine the network runs on (for a sender's own follow-up events).
  Engine& engine() const { return engine_; }
  // Bits handed to the network by senders (a multicast counts once; self-sends count zero).
  int64_t bits_sent_total() const { return bits_sent_total_; }
  // Bits summed over all links (a message crossing 2 links counts twice).
  int64_t link_bits_total() const;
  int64_t messages_in_flight() const { return in_flight_; }
  const Topology& topology() const { return topology_; }
  const NetworkOptions& options() const { return options_; }
  const PacketFormat& packet_format() const { return format_; }
  // Appends a HopRecord for every unit put on a link, until set to nullptr (packet and message
  // models; kFlow records nothing).
  void set_trace(std::vector<HopRecord>* sink) { trace_ = sink; }
  // Tests only (the oracle of the differential test): at every flow start and end kFlow solves
  // every flow in flight with MaxMinSolver::SolveReference (a scan of every link per step),
  // takes the new rates of the touched component from that solution, checks (aborting
  // otherwise) that every other flow's rate is unchanged bit for bit, and finds due flows and
  // the next wake-up by scanning every flow in flight. The results are the same bits; only the
  // cost differs. Call before the first Send.
  void UseReferenceFlowSolver() { reference_flow_solver_ = true; }

 private:
  struct FqEntry {
    uint32_t flow = 0;
    int hop = 0;
  };
  struct LinkState {
    SimTime free_at;
    SimTime latency;
    double bandwidth_bps = 0;
    SimTime mtu_transmit;  // transmit time of one full packet
    LinkStats stats;
    bool busy = false;              // kFairQueue: a packet is being transmitted
    std::deque<FqEntry> fq_active;  // kFairQueue: messages with packets waiting, in DRR order
  };
  // One link of a message's route tree; siblings are chained through next_sibling.
  struct Hop {
    int link = 0;
    int first_child = -1;
    int next_sibling = -1;
    int deliver_to = -1;  // host reached by this hop that takes delivery, or -1
    bool from_source = false;
    SimTime train_start;  // hops leaving the source: start of the whole packet train
    // kFairQueue: packets arrived at this link / sent on it, DRR deficit, in the link's list.
    int64_t ready = 0;
    int64_t sent = 0;
    int64_t deficit_bits = 0;
    bool queued = false;
    SimTime path_latency;  // kFlow: latency from the source to this hop's far end
    int fluid_pos = -1;    // kFlow: index in link_fluid_[link] while the flow takes bandwidth
  };
  struct FluidRef {
    uint32_t flow = 0;
    int hop = 0;
  };
  struct Flow {
    MessageId id = 0;
    bool live = false;
    int64_t packets = 0;
    int64_t packet_bits = 0;  // all packets but the last
    int64_t last_bits = 0;
    int first_root = -1;  // first hop leaving the source
    int remaining = 0;    // destinations not yet delivered
    // kFlow state. While the flow takes bandwidth its remaining bits and rate live in
    // fluid_remaining_bits_ and fluid_rate_bps_ at fluid_pos.
    double remaining_bits = 0;
    double rate_bps = 0;
    int fluid_pos = -1;
    SimTime finish;           // completion instant at the current rate
    SimTime min_latency;      // shortest route latency: the flow starts taking bandwidth after it
    double cap_bps = 0;       // slow start: window / round trip (0: no cap)
    uint64_t activation = 0;  // order in which flows started taking bandwidth
    uint64_t visit = 0;       // stamp of the last component search that reached this flow
    double bottleneck_bps = 0;
    SimTime rtt;
    SimTime next_growth;  // slow start: when the window doubles next (Max: never)
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
  void LaunchModel(uint32_t f);
  void LaunchFifo(uint32_t f);
  // Sets every hop's path_latency; returns the shortest and longest to a destination.
  std::pair<SimTime, SimTime> PathLatencies(Flow& flow);
  void GrowWindows(std::span<const uint32_t> due, SimTime now);
  // kFairQueue (network_fair_queue.cc).
  void LaunchFq(uint32_t f);
  void EnqueueFq(uint32_t f, int h, int64_t packets);
  void StartNextFq(int link);
  void ArriveFq(uint32_t f, int h, int64_t packet);
  // kFlow (network_flow.cc).
  void LaunchFlow(uint32_t f);
  void ActivateFlow(uint32_t f);
  // Solves the seeded flows once, after every event already due at this instant (many flows
  // start at one instant: a round's messages).
  void RequestSolve();
  void OnFlowWake(uint64_t generation);
  // Moves the flows due at `now` (heap, or a scan with the reference solver) into done (in
  // activation order) and grow.
  void CollectDueFlows(SimTime now, std::vector<uint32_t>& done, std::vector<uint32_t>& grow);
  void RemoveFluid(uint32_t f);
  void DrainFlowsTo(SimTime now);
  void RecomputeRates();
  void FindComponent();
  void BuildSolverInput(const std::vector<uint32_t>& flows);
  void SolveComponent();
  void ScheduleWake();
  void FinishFlow(uint32_t f);

  NetworkModel model_ = NetworkModel::kMessage;
  PacketFormat format_;
  int64_t full_packet_bits_ = 0;  // wire bits of a full packet
  Engine& engine_;
  const Topology& topology_;
  NetworkOptions options_;
  std::vector<LinkState> links_;
  std::deque<Flow> flows_;  // stable addresses: handlers may Send while one is delivered
  std::vector<uint32_t> free_flows_;
  std::vector<int> hop_of_link_;    // scratch for AddRoute, -1 between uses
  std::vector<int> route_scratch_;  // scratch for AddRoute
  MessageId next_id_ = 1;
  int64_t bits_sent_total_ = 0;
  int64_t in_flight_ = 0;
  std::vector<HopRecord>* trace_ = nullptr;
  // kFlow: flows taking bandwidth (in no particular order), their remaining bits and rates
  // (parallel arrays), the instant their bits were last drained, the generation of the pending
  // wake-up event, each one's next due instant (min of completion and window growth), and the
  // max-min solver with its scratch.
  std::vector<uint32_t> fluid_;
  std::vector<double> fluid_remaining_bits_;
  std::vector<double> fluid_rate_bps_;
  IndexedMinHeap due_heap_;
  bool reference_flow_solver_ = false;
  SimTime fluid_updated_;
  uint64_t fluid_generation_ = 0;
  bool solve_pending_ = false;  // a RequestSolve event is scheduled at this instant
  MaxMinSolver solver_;
  std::vector<int> link_slot_;                     // link -> index in solver input, -1 when unused
  std::vector<std::vector<FluidRef>> link_fluid_;  // link -> fluid flows crossing it
  std::vector<uint64_t> link_visit_;  // stamp of the last component search that reached a link
  std::vector<int> seed_links_;       // links whose flows' rates must be recomputed
  std::vector<uint32_t> component_;
  std::vector<uint32_t> all_fluid_;  // reference solver: every fluid flow, in activation order
  uint64_t visit_stamp_ = 0;
  uint64_t activations_ = 0;
  MaxMinProblem solver_input_;
  std::vector<int> solver_links_;  // solver link -> network link, -1 for a window cap
  std::vector<double> solver_rates_;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_NETWORK_H_
