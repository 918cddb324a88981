#include "sim/network.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "base/check.h"
#include "base/error.h"

namespace commsim {

// Implementation notes. A link's FIFO queue needs no storage: units are handled in the order they
// reach the link, so each one starts at max(now, free_at) and pushes free_at to its end. At the
// source every packet of a message is queued at once, so the whole train is booked in one step
// and only its arrivals at the next node are events, chained one packet at a time so the event
// queue holds one of them per train. Later hops book each packet as it arrives. A hop that leads
// to no further hop only needs the event of the last packet: the delivery.

Network::Network(Engine& engine, const Topology& topology, NetworkOptions options)
    : engine_(engine), topology_(topology), options_(options) {
  COMMSIM_CHECK(options_.mtu_bits >= 0, "mtu_bits must be >= 0, got {}", options_.mtu_bits);
  COMMSIM_CHECK(options_.max_packets_per_message >= 1, "max_packets_per_message must be >= 1");
  if (!options_.model) {
    options_.model = options_.mtu_bits > 0 ? NetworkModel::kPacket : NetworkModel::kMessage;
    options_.queue = QueueDiscipline::kFifo;
  }
  model_ = *options_.model;
  const std::optional<PacketFormat> format = MakePacketFormat(options_.protocol, options_.mtu_bits);
  COMMSIM_CHECK(format.has_value(), "mtu {} bits leaves no payload for the protocol",
                options_.mtu_bits);
  format_ = *format;
  full_packet_bits_ = format_.PacketWireBits(format_.payload_bits);
  links_.reserve(topology.links().size());
  for (const Link& l : topology.links()) {
    LinkState s;
    s.latency = SimTime::FromSeconds(l.latency_s);
    s.bandwidth_bps = l.bandwidth_bps;
    s.mtu_transmit = TransmitTime(full_packet_bits_, l.bandwidth_bps);
    links_.push_back(s);
  }
  hop_of_link_.assign(links_.size(), -1);
  link_slot_.assign(links_.size(), -1);
  link_fluid_.resize(links_.size());
  link_visit_.assign(links_.size(), 0);
}

int64_t Network::link_bits_total() const {
  int64_t total = 0;
  for (const LinkState& l : links_) total += l.stats.bits;
  return total;
}

Network::MessageId Network::Send(int src_host, int dst_host, int64_t wire_bits,
                                 Handler on_delivery) {
  const int hosts = topology_.num_hosts();
  COMMSIM_CHECK(src_host >= 0 && src_host < hosts && dst_host >= 0 && dst_host < hosts,
                "send {} -> {} outside hosts [0, {})", src_host, dst_host, hosts);
  COMMSIM_CHECK(wire_bits >= 0, "negative message size {} bits", wire_bits);
  COMMSIM_CHECK(static_cast<bool>(on_delivery), "Send without a delivery handler");
  const MessageId id = next_id_++;
  if (src_host == dst_host) {
    engine_.Schedule(SimTime::Zero(), std::move(on_delivery));
    return id;
  }
  const uint32_t f = NewFlow(wire_bits);
  Flow& flow = flows_[f];
  flow.id = id;
  flow.remaining = 1;
  flow.on_unicast = std::move(on_delivery);
  AddRoute(flow, src_host, dst_host);
  for (const Hop& hop : flow.hops) hop_of_link_[hop.link] = -1;
  bits_sent_total_ += wire_bits;
  Launch(f);
  return id;
}

Network::MessageId Network::Multicast(int src_host, std::span<const int> dst_hosts,
                                      int64_t wire_bits, std::function<void(int dst)> on_delivery) {
  const int hosts = topology_.num_hosts();
  COMMSIM_CHECK(src_host >= 0 && src_host < hosts, "multicast from {} outside hosts", src_host);
  COMMSIM_CHECK(!dst_hosts.empty(), "multicast without destinations");
  COMMSIM_CHECK(wire_bits >= 0, "negative message size {} bits", wire_bits);
  COMMSIM_CHECK(static_cast<bool>(on_delivery), "Multicast without a delivery handler");
  const uint32_t f = NewFlow(wire_bits);
  Flow& flow = flows_[f];
  flow.id = next_id_++;
  flow.remaining = static_cast<int>(dst_hosts.size());
  flow.on_multicast = std::move(on_delivery);
  bool to_self = false;
  for (int dst : dst_hosts) {
    COMMSIM_CHECK(dst >= 0 && dst < hosts, "multicast to {} outside hosts [0, {})", dst, hosts);
    if (dst == src_host) {
      COMMSIM_CHECK(!to_self, "multicast destination {} listed twice", dst);
      to_self = true;
    } else {
      AddRoute(flow, src_host, dst);
    }
  }
  for (const Hop& hop : flow.hops) hop_of_link_[hop.link] = -1;
  if (!flow.hops.empty()) bits_sent_total_ += wire_bits;
  if (to_self) engine_.Schedule(SimTime::Zero(), [this, f, src_host] { Deliver(f, src_host); });
  Launch(f);
  return flow.id;
}

uint32_t Network::NewFlow(int64_t wire_bits) {
  uint32_t f;
  if (!free_flows_.empty()) {
    f = free_flows_.back();
    free_flows_.pop_back();
  } else {
    f = static_cast<uint32_t>(flows_.size());
    flows_.emplace_back();
  }
  Flow& flow = flows_[f];
  flow.live = true;
  flow.hops.clear();
  flow.first_root = -1;
  const int64_t packets = format_.Packets(wire_bits);
  const int64_t total_bits = format_.MessageWireBits(wire_bits);
  const char* problem = nullptr;
  if (model_ == NetworkModel::kPacket && packets > options_.max_packets_per_message) {
    problem =
        "packets per message; raise /network/mtu, or /limits/max_packets_per_message, "
        "or use /network/model \"flow\"";
  } else if (total_bits == std::numeric_limits<int64_t>::max()) {
    problem =
        "packets per message, since its wire bits overflow a 64-bit count; raise "
        "/network/mtu";
  }
  if (problem != nullptr) [[unlikely]] {
    flow.live = false;
    free_flows_.push_back(f);
    throw SimulationLimitError(fmt::format(
        "a message of {} bits at network mtu {} bits is {} packets, more than the limit of {} {}",
        wire_bits, options_.mtu_bits, packets, options_.max_packets_per_message, problem));
  }
  if (model_ == NetworkModel::kPacket) {
    flow.packets = packets;
    flow.packet_bits = packets > 1 ? full_packet_bits_ : total_bits;
    flow.last_bits = total_bits - (packets - 1) * flow.packet_bits;
  } else {  // whole messages; kFlow uses only the total and counts the packets in LinkStats
    flow.packets = model_ == NetworkModel::kFlow ? packets : 1;
    flow.packet_bits = total_bits;
    flow.last_bits = total_bits;
  }
  ++in_flight_;
  return f;
}

void Network::AddRoute(Flow& flow, int src, int dst) {
  int parent = -1;
  topology_.RouteInto(src, dst, route_scratch_);
  for (int link : route_scratch_) {
    int h = hop_of_link_[link];
    if (h < 0) {
      h = static_cast<int>(flow.hops.size());
      Hop hop;
      hop.link = link;
      hop.from_source = parent < 0;
      flow.hops.push_back(hop);
      hop_of_link_[link] = h;
      int& head = parent < 0 ? flow.first_root : flow.hops[parent].first_child;
      flow.hops[h].next_sibling = head;
      head = h;
    }
    parent = h;
  }
  COMMSIM_CHECK(flow.hops[parent].deliver_to < 0, "multicast destination {} listed twice", dst);
  flow.hops[parent].deliver_to = dst;
}

SimTime Network::UnitTransmit(const LinkState& link, int64_t bits) const {
  return bits == full_packet_bits_ ? link.mtu_transmit : TransmitTime(bits, link.bandwidth_bps);
}

SimTime Network::TrainEnd(const Flow& flow, const Hop& hop, int64_t packet) const {
  const LinkState& link = links_[hop.link];
  const SimTime full = UnitTransmit(link, flow.packet_bits);
  if (packet + 1 < flow.packets) return hop.train_start + full * (packet + 1);
  return hop.train_start + full * (flow.packets - 1) + UnitTransmit(link, flow.last_bits);
}

void Network::Launch(uint32_t f) {
  Flow& flow = flows_[f];
  if (flow.first_root < 0) return;  // a multicast to the source only
  const SimTime longest = PathLatencies(flow).second;
  if (options_.protocol.kind == ProtocolKind::kTcp && options_.protocol.tcp_handshake) {
    // SYN to the farthest destination and its SYN-ACK back before the first byte.
    engine_.Schedule(longest * 2, [this, f] { LaunchModel(f); });
  } else {
    LaunchModel(f);
  }
}

std::pair<SimTime, SimTime> Network::PathLatencies(Flow& flow) {
  // A hop's children come after it in hops (routes are added root first).
  SimTime shortest = SimTime::Max(), longest;
  for (size_t h = 0; h < flow.hops.size(); ++h) {
    Hop& hop = flow.hops[h];
    if (hop.from_source) hop.path_latency = links_[hop.link].latency;
    for (int c = hop.first_child; c >= 0; c = flow.hops[c].next_sibling) {
      flow.hops[c].path_latency = hop.path_latency + links_[flow.hops[c].link].latency;
    }
    if (hop.deliver_to >= 0) {
      shortest = std::min(shortest, hop.path_latency);
      longest = std::max(longest, hop.path_latency);
    }
  }
  return {shortest, longest};
}

void Network::LaunchModel(uint32_t f) {
  if (model_ == NetworkModel::kFlow) {
    LaunchFlow(f);
  } else if (model_ == NetworkModel::kPacket && options_.queue == QueueDiscipline::kFairQueue) {
    LaunchFq(f);
  } else {
    LaunchFifo(f);
  }
}

void Network::LaunchFifo(uint32_t f) {
  Flow& flow = flows_[f];
  const int64_t last = flow.packets - 1;
  for (int r = flow.first_root; r >= 0; r = flow.hops[r].next_sibling) {
    Hop& hop = flow.hops[r];
    LinkState& link = links_[hop.link];
    hop.train_start = std::max(engine_.Now(), link.free_at);
    const SimTime end = TrainEnd(flow, hop, last);
    link.free_at = end;
    link.stats.bits += flow.packet_bits * last + flow.last_bits;
    link.stats.busy_time += end - hop.train_start;
    link.stats.messages += 1;
    link.stats.packets += flow.packets;
    if (trace_ != nullptr) trace_->push_back({flow.id, hop.link, -1, hop.train_start, end});
    const int64_t first = hop.first_child >= 0 ? 0 : last;  // a leaf hop only needs the last
    ScheduleArrival(TrainEnd(flow, hop, first) + link.latency, f, r, first);
  }
}

void Network::ScheduleArrival(SimTime at, uint32_t f, int h, int64_t packet) {
  engine_.ScheduleAt(at, [this, f, h, packet] { Arrive(f, h, packet); });
}

void Network::Arrive(uint32_t f, int h, int64_t packet) {
  Flow& flow = flows_[f];
  COMMSIM_CHECK(flow.live, "event for a finished message");
  const Hop& hop = flow.hops[h];
  if (hop.from_source && hop.first_child >= 0 && packet + 1 < flow.packets) {
    ScheduleArrival(TrainEnd(flow, hop, packet + 1) + links_[hop.link].latency, f, h, packet + 1);
  }
  for (int c = hop.first_child; c >= 0; c = flow.hops[c].next_sibling) Forward(f, c, packet);
  if (packet + 1 == flow.packets && hop.deliver_to >= 0) Deliver(f, hop.deliver_to);
}

void Network::Forward(uint32_t f, int h, int64_t packet) {
  Flow& flow = flows_[f];
  const Hop& hop = flow.hops[h];
  LinkState& link = links_[hop.link];
  const bool last = packet + 1 == flow.packets;
  const int64_t bits = last ? flow.last_bits : flow.packet_bits;
  const SimTime start = std::max(engine_.Now(), link.free_at);
  const SimTime end = start + UnitTransmit(link, bits);
  link.free_at = end;
  link.stats.bits += bits;
  link.stats.busy_time += end - start;
  link.stats.packets += 1;
  if (packet == 0) link.stats.messages += 1;
  if (trace_ != nullptr) trace_->push_back({flow.id, hop.link, packet, start, end});
  if (hop.first_child >= 0 || (last && hop.deliver_to >= 0)) {
    ScheduleArrival(end + link.latency, f, h, packet);
  }
}

void Network::Deliver(uint32_t f, int dst) {
  Flow& flow = flows_[f];
  if (--flow.remaining > 0) {
    flow.on_multicast(dst);
    return;
  }
  // Free the flow before running user code, which may send (and reuse this slot).
  Handler unicast = std::move(flow.on_unicast);
  std::function<void(int)> multicast = std::move(flow.on_multicast);
  flow.on_unicast.Reset();
  flow.on_multicast = nullptr;
  flow.live = false;
  free_flows_.push_back(f);
  --in_flight_;
  if (unicast) {
    unicast();
  } else {
    multicast(dst);
  }
}

}  // namespace commsim
