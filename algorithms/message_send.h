// Sending a Message through a Network: the payload travels with the send and the delivery handler
// receives it, so no party reaches into another's state for a message's content.
//
// Wire bits = message->payload_bits + header_bits (the network never looks at the words); the
// message stays alive (shared, immutable) until its last delivery has run. Timing, limits and
// counters are Network::Send's and Network::Multicast's (sim/network.h).
// Counting: these two functions are where bits are counted, once per message handed to the
// network, into the WireTally of the message's direction; the drivers read the tallies, they never
// add message sizes themselves.
// Allocation: the shared message is held inside the network's delivery handler, so a unicast
// handler with up to 32 bytes of captures stays allocation-free (Handler::kInlineBytes = 48).
#ifndef COMMSIM_ALGORITHMS_MESSAGE_SEND_H_
#define COMMSIM_ALGORITHMS_MESSAGE_SEND_H_

#include <cstdint>
#include <span>
#include <utility>

#include "compression/message.h"
#include "sim/network.h"

namespace commsim {

// What the messages of one direction carried. A multicast counts once; a message to its own host
// crosses no link and counts nothing (as Network::bits_sent_total).
struct WireTally {
  int64_t bits = 0;   // payload + header bits
  int64_t bytes = 0;  // the same messages as the network's protocol puts them on the wire: its
                      // packets with their protocol headers and framing (PacketFormat::
                      // MessageWireBits), each message rounded up to whole bytes

  void Count(const Network& network, int64_t wire_bits) {
    bits += wire_bits;
    bytes += (network.packet_format().MessageWireBits(wire_bits) + 7) / 8;
  }
};

// on_delivery(const SharedMessage&) runs at dst when the message's last unit arrives (the receiver
// may keep the handle, e.g. to decode later; it must not modify the message).
// The message is counted into `tally` unless src_host == dst_host.
// REQUIRES: message != nullptr, header_bits >= 0, and what Network::Send requires.
template <class OnDelivery>
Network::MessageId SendMessage(Network& network, int src_host, int dst_host, SharedMessage message,
                               int64_t header_bits, WireTally& tally, OnDelivery on_delivery) {
  const int64_t wire_bits = message->payload_bits + header_bits;
  if (src_host != dst_host) tally.Count(network, wire_bits);
  return network.Send(src_host, dst_host, wire_bits,
                      [m = std::move(message), f = std::move(on_delivery)] { f(m); });
}

// on_delivery(int dst, const SharedMessage&) runs once per destination (one copy per link of the
// union of the routes); the message is counted into `tally` once, unless its only destination is
// src_host. REQUIRES: as Network::Multicast.
template <class OnDelivery>
Network::MessageId MulticastMessage(Network& network, int src_host, std::span<const int> dst_hosts,
                                    SharedMessage message, int64_t header_bits, WireTally& tally,
                                    OnDelivery on_delivery) {
  const int64_t wire_bits = message->payload_bits + header_bits;
  if (dst_hosts.size() > 1 || dst_hosts.front() != src_host) tally.Count(network, wire_bits);
  return network.Multicast(
      src_host, dst_hosts, wire_bits,
      [m = std::move(message), f = std::move(on_delivery)](int dst) { f(dst, m); });
}

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_MESSAGE_SEND_H_
