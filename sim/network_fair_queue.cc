// kPacket with kFairQueue: deficit round robin over the messages waiting at each link.
//
// Every (message, hop) with packets waiting at a link is one entry of the link's round-robin
// list. The entry at the front sends while its deficit covers its next packet; when a turn
// starts the deficit grows by one quantum (a full packet's wire bits, the largest packet), so
// every turn sends at least one packet. An entry whose packets are all sent leaves the list and
// forgets its deficit; a new entry joins at the back. A link that finishes a packet picks the
// next one at that instant (an event), so packets arriving meanwhile compete for the next slot;
// an idle link starts through an event too, so messages sent at the same instant share from
// their first packet.
#include <fmt/format.h>

#include "base/check.h"
#include "sim/network.h"

namespace commsim {

void Network::LaunchFq(uint32_t f) {
  Flow& flow = flows_[f];
  for (int r = flow.first_root; r >= 0; r = flow.hops[r].next_sibling) {
    links_[flow.hops[r].link].stats.messages += 1;
    EnqueueFq(f, r, flow.packets);
  }
}

void Network::EnqueueFq(uint32_t f, int h, int64_t packets) {
  Hop& hop = flows_[f].hops[h];
  hop.ready += packets;
  LinkState& link = links_[hop.link];
  if (!hop.queued) {
    hop.queued = true;
    hop.deficit_bits = 0;
    link.fq_active.push_back({f, h});
  }
  if (!link.busy) {  // start at this instant, after every packet arriving now has joined
    link.busy = true;
    const int l = hop.link;
    engine_.Schedule(SimTime::Zero(), [this, l] { StartNextFq(l); });
  }
}

void Network::StartNextFq(int l) {
  LinkState& link = links_[l];
  if (link.fq_active.empty()) {
    link.busy = false;
    return;
  }
  const FqEntry entry = link.fq_active.front();
  Flow& flow = flows_[entry.flow];
  Hop& hop = flow.hops[entry.hop];
  const int64_t packet = hop.sent;
  const bool last = packet + 1 == flow.packets;
  const int64_t bits = last ? flow.last_bits : flow.packet_bits;
  if (hop.deficit_bits < bits) hop.deficit_bits += full_packet_bits_;  // a new turn
  COMMSIM_CHECK(hop.deficit_bits >= bits, "packet of {} bits above the quantum", bits);
  hop.deficit_bits -= bits;
  ++hop.sent;
  const SimTime start = engine_.Now();
  const SimTime end = start + UnitTransmit(link, bits);
  link.busy = true;
  link.stats.bits += bits;
  link.stats.busy_time += end - start;
  link.stats.packets += 1;
  if (trace_ != nullptr) trace_->push_back({flow.id, l, packet, start, end});
  if (hop.first_child >= 0 || (last && hop.deliver_to >= 0)) {
    const uint32_t f = entry.flow;
    const int h = entry.hop;
    engine_.ScheduleAt(end + link.latency, [this, f, h, packet] { ArriveFq(f, h, packet); });
  }
  if (hop.sent == hop.ready) {  // nothing more waiting: leave the list
    hop.queued = false;
    hop.deficit_bits = 0;
    link.fq_active.pop_front();
  } else {
    const int64_t next_bits = hop.sent + 1 == flow.packets ? flow.last_bits : flow.packet_bits;
    if (hop.deficit_bits < next_bits) {  // turn over: to the back of the list
      link.fq_active.pop_front();
      link.fq_active.push_back(entry);
    }
  }
  engine_.ScheduleAt(end, [this, l] { StartNextFq(l); });
}

void Network::ArriveFq(uint32_t f, int h, int64_t packet) {
  Flow& flow = flows_[f];
  COMMSIM_CHECK(flow.live, "event for a finished message");
  const Hop& hop = flow.hops[h];
  for (int c = hop.first_child; c >= 0; c = flow.hops[c].next_sibling) {
    if (packet == 0) links_[flow.hops[c].link].stats.messages += 1;
    EnqueueFq(f, c, 1);
  }
  if (packet + 1 == flow.packets && hop.deliver_to >= 0) Deliver(f, hop.deliver_to);
}

}  // namespace commsim
