// Sending a Message through a Network: the payload travels with the send and the delivery handler
// receives it, so no party reaches into another's state for a message's content.
//
// Wire bits = message->payload_bits + header_bits (the network never looks at the words); the
// message stays alive (shared, immutable) until its last delivery has run. Timing, limits and
// counters are Network::Send's and Network::Multicast's (sim/network.h).
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

// on_delivery(const SharedMessage&) runs at dst when the message's last unit arrives (the receiver
// may keep the handle, e.g. to decode later; it must not modify the message).
// REQUIRES: message != nullptr, header_bits >= 0, and what Network::Send requires.
template <class OnDelivery>
Network::MessageId SendMessage(Network& network, int src_host, int dst_host, SharedMessage message,
                               int64_t header_bits, OnDelivery on_delivery) {
  const int64_t wire_bits = message->payload_bits + header_bits;
  return network.Send(src_host, dst_host, wire_bits,
                      [m = std::move(message), f = std::move(on_delivery)] { f(m); });
}

// on_delivery(int dst, const SharedMessage&) runs once per destination (one copy per link of the
// union of the routes). REQUIRES: as Network::Multicast.
template <class OnDelivery>
Network::MessageId MulticastMessage(Network& network, int src_host, std::span<const int> dst_hosts,
                                    SharedMessage message, int64_t header_bits,
                                    OnDelivery on_delivery) {
  const int64_t wire_bits = message->payload_bits + header_bits;
  return network.Multicast(
      src_host, dst_hosts, wire_bits,
      [m = std::move(message), f = std::move(on_delivery)](int dst) { f(dst, m); });
}

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_MESSAGE_SEND_H_
