#include "sim/protocol.h"

#include <algorithm>
#include <limits>

namespace commsim {
namespace {

constexpr int64_t kByte = 8;

int64_t HeaderBytes(const ProtocolOptions& o) {
  switch (o.kind) {
    case ProtocolKind::kNone:
      return 0;
    case ProtocolKind::kTcp:
      return 20 + 20 + (o.tcp_timestamps ? 12 : 0);
    case ProtocolKind::kUdp:
      return 20 + 8;
    case ProtocolKind::kRoce:
      return 20 + 8 + 12 + 4;
  }
  return 0;
}

int64_t FramingBytes(Framing f) {
  switch (f) {
    case Framing::kEthernet:
      return 14 + 4;
    case Framing::kEthernetWire:
      return 14 + 4 + 8 + 12;
    case Framing::kPpp:
      return 2;
    case Framing::kNone:
      return 0;
  }
  return 0;
}

}  // namespace

int64_t DefaultMtuBits(ProtocolKind kind) {
  return (kind == ProtocolKind::kRoce ? 4096 : 1500) * kByte;
}

std::optional<PacketFormat> MakePacketFormat(const ProtocolOptions& options, int64_t mtu_bits) {
  if (mtu_bits < 0) return std::nullopt;
  if (mtu_bits == 0) mtu_bits = DefaultMtuBits(options.kind);
  PacketFormat f;
  if (options.kind == ProtocolKind::kNone) {
    f.payload_bits = mtu_bits;
    return f;
  }
  if (mtu_bits % kByte != 0) return std::nullopt;
  const int64_t headers = HeaderBytes(options) * kByte;
  // RoCE's mtu is the payload per packet; for IP protocols it is the IP packet, headers included.
  f.payload_bits = options.kind == ProtocolKind::kRoce ? mtu_bits : mtu_bits - headers;
  if (f.payload_bits <= 0) return std::nullopt;
  f.overhead_bits = headers + FramingBytes(options.framing) * kByte;
  const bool ethernet =
      options.framing == Framing::kEthernet || options.framing == Framing::kEthernetWire;
  // Minimum Ethernet frame: 64 bytes from header to FCS (the preamble and gap come on top).
  if (ethernet) f.min_frame_bits = (64 + FramingBytes(options.framing) - 18) * kByte;
  return f;
}

int64_t PacketFormat::PacketWireBits(int64_t payload) const {
  if (payload == 0) return 0;
  return std::max(payload + overhead_bits, min_frame_bits);
}

int64_t PacketFormat::Packets(int64_t message_bits) const {
  // message_bits / payload + 1 cannot overflow, unlike message_bits + payload - 1.
  return message_bits > payload_bits
             ? message_bits / payload_bits + (message_bits % payload_bits != 0)
             : 1;
}

int64_t PacketFormat::MessageWireBits(int64_t message_bits) const {
  if (message_bits == 0) return 0;
  const int64_t packets = Packets(message_bits);
  const int64_t last = message_bits - (packets - 1) * payload_bits;
  int64_t full = 0;
  int64_t total = 0;
  if (__builtin_mul_overflow(packets - 1, PacketWireBits(payload_bits), &full) ||
      __builtin_add_overflow(full, PacketWireBits(last), &total)) {
    return std::numeric_limits<int64_t>::max();
  }
  return total;
}

}  // namespace commsim
