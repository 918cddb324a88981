// Protocol overhead: how a message of payload bits becomes packets and wire bits.
//
// A message of M payload bits is cut into packets of at most payload_bits (the last one may be
// shorter); every packet carries overhead_bits of headers and framing on the wire, so
//   packets(M)   = max(1, ceil(M / payload_bits)),
//   wire_bits(M) = M + packets(M) * overhead_bits      (a 0-bit message is 0 wire bits: it pays
//                                                       latency only, whatever the protocol).
// Per packet, with `mtu` the largest IP packet in bytes (tcp, udp) or the RoCE payload MTU (roce):
//   none: payload = mtu, overhead 0 (today's model: the mtu is the packet size)
//   tcp:  payload = mtu - 40 (IPv4 20 + TCP 20), - 12 more with timestamps; headers 40 (+12)
//   udp:  payload = mtu - 28 (IPv4 20 + UDP 8); headers 28
//   roce: payload = mtu (RoCEv2 path MTU, 4096 by default); headers 44 (IPv4 20 + UDP 8 +
//         InfiniBand BTH 12 + ICRC 4)
// plus the framing of the link layer (bytes per packet):
//   ethernet      18 (header 14 + FCS 4), frames padded to 64 bytes
//   ethernet_wire 38 (ethernet + preamble 8 + inter-frame gap 12: what a real wire carries)
//   ppp           2  (ns-3 point-to-point links)
//   none          0
// Every quantity is an integer number of bits: results do not depend on the platform.
#ifndef COMMSIM_SIM_PROTOCOL_H_
#define COMMSIM_SIM_PROTOCOL_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace commsim {

enum class ProtocolKind { kNone, kTcp, kUdp, kRoce };
enum class Framing { kEthernet, kEthernetWire, kPpp, kNone };

inline constexpr std::array<std::string_view, 4> kProtocolNames = {"none", "tcp", "udp", "roce"};
inline constexpr std::array<std::string_view, 4> kFramingNames = {"ethernet", "ethernet_wire",
                                                                  "ppp", "none"};

struct ProtocolOptions {
  ProtocolKind kind = ProtocolKind::kNone;
  Framing framing = Framing::kEthernet;  // ignored by kNone
  bool tcp_timestamps = true;            // TCP option of 12 bytes per segment (Linux default)
  // TCP start-up (kTcp only; sim/network.h says which models simulate it). Off: persistent
  // connections whose window already covers the path.
  bool tcp_handshake = false;   // one round trip before the first byte of every message
  bool tcp_slow_start = false;  // window of kTcpInitialWindow segments, doubling every round trip
};

inline constexpr int64_t kTcpInitialWindow = 10;  // segments (RFC 6928)

// The default mtu of a protocol in bits: 1500 bytes, RoCE 4096 bytes.
int64_t DefaultMtuBits(ProtocolKind kind);

struct PacketFormat {
  int64_t payload_bits = 0;    // message bits per full packet
  int64_t overhead_bits = 0;   // header and framing bits per packet
  int64_t min_frame_bits = 0;  // a packet's wire size is at least this (Ethernet padding)

  // Wire bits of one packet carrying `payload` message bits (0 payload: 0 wire bits).
  int64_t PacketWireBits(int64_t payload) const;
  // Packets of a message (1 for a 0-bit message).
  int64_t Packets(int64_t message_bits) const;
  // Wire bits of the whole message: the sum over its packets (INT64_MAX when that overflows).
  int64_t MessageWireBits(int64_t message_bits) const;
};

// The packet format of `options` at `mtu_bits` (0 = DefaultMtuBits). Returns nullopt when the mtu
// leaves no payload (e.g. tcp with an mtu of 40 bytes or less) or is not a whole number of bytes
// with a protocol other than none.
std::optional<PacketFormat> MakePacketFormat(const ProtocolOptions& options, int64_t mtu_bits);

}  // namespace commsim

#endif  // COMMSIM_SIM_PROTOCOL_H_
