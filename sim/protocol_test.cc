#include "sim/protocol.h"

#include <gtest/gtest.h>

#include <limits>

namespace commsim {
namespace {

constexpr int64_t kMB = 1'000'000;  // bytes

int64_t WireBytes(ProtocolKind kind, Framing framing, int64_t mtu_bytes, int64_t message_bytes,
                  bool timestamps = true) {
  ProtocolOptions o{kind, framing, timestamps};
  const auto f = MakePacketFormat(o, mtu_bytes * 8);
  EXPECT_TRUE(f.has_value());
  const int64_t bits = f->MessageWireBits(message_bytes * 8);
  EXPECT_EQ(bits % 8, 0);
  return bits / 8;
}

// Each expectation: packets = ceil(1e6 / payload), wire = 1e6 + packets x (headers + framing).
TEST(ProtocolTest, TcpOverEthernetAtMtu1500IsMss1448PlusSeventyBytesPerSegment) {
  // MSS 1500 - 20 - 20 - 12 = 1448; 691 segments; headers 52 + Ethernet 18 = 70 bytes each.
  EXPECT_EQ(WireBytes(ProtocolKind::kTcp, Framing::kEthernet, 1500, kMB), kMB + 691 * 70);
  // Over ns-3's point-to-point links: 52 + 2 bytes (1502 per full 1448-byte segment).
  EXPECT_EQ(WireBytes(ProtocolKind::kTcp, Framing::kPpp, 1500, kMB), kMB + 691 * 54);
  // Without timestamps, on a real wire: MSS 1460, 685 segments, 40 + 18 + 8 + 12 = 78 bytes.
  EXPECT_EQ(WireBytes(ProtocolKind::kTcp, Framing::kEthernetWire, 1500, kMB, false),
            kMB + 685 * 78);
  // MTU 4096: MSS 4044, 248 segments.
  EXPECT_EQ(WireBytes(ProtocolKind::kTcp, Framing::kEthernet, 4096, kMB), kMB + 248 * 70);
}

TEST(ProtocolTest, UdpAndRoceHeaders) {
  // UDP: payload 1500 - 28 = 1472, 680 datagrams, 28 + 18 = 46 bytes each.
  EXPECT_EQ(WireBytes(ProtocolKind::kUdp, Framing::kEthernet, 1500, kMB), kMB + 680 * 46);
  // UDP at MTU 4096: payload 4068, 246 datagrams.
  EXPECT_EQ(WireBytes(ProtocolKind::kUdp, Framing::kEthernet, 4096, kMB), kMB + 246 * 46);
  // RoCEv2: the MTU is the payload, 4096 -> 245 packets of 20 + 8 + 12 + 4 + 18 = 62 bytes.
  EXPECT_EQ(WireBytes(ProtocolKind::kRoce, Framing::kEthernet, 4096, kMB), kMB + 245 * 62);
  // RoCE at MTU 1024 with no framing: 977 packets of 44 bytes.
  EXPECT_EQ(WireBytes(ProtocolKind::kRoce, Framing::kNone, 1024, kMB), kMB + 977 * 44);
}

TEST(ProtocolTest, DefaultMtuIs1500BytesAndRoce4096) {
  EXPECT_EQ(DefaultMtuBits(ProtocolKind::kTcp), 12000);
  EXPECT_EQ(DefaultMtuBits(ProtocolKind::kNone), 12000);
  EXPECT_EQ(DefaultMtuBits(ProtocolKind::kRoce), 32768);
  const auto f = MakePacketFormat({ProtocolKind::kRoce, Framing::kEthernet, true}, 0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->payload_bits, 4096 * 8);
}

TEST(ProtocolTest, ShortFramesArePaddedToSixtyFourBytes) {
  // 1 byte of UDP: 1 + 28 + 18 = 47 bytes, padded to the 64-byte minimum frame.
  EXPECT_EQ(WireBytes(ProtocolKind::kUdp, Framing::kEthernet, 1500, 1), 64);
  // On the wire the preamble and gap come on top of the padded frame.
  EXPECT_EQ(WireBytes(ProtocolKind::kUdp, Framing::kEthernetWire, 1500, 1), 84);
  // PPP has no minimum.
  EXPECT_EQ(WireBytes(ProtocolKind::kUdp, Framing::kPpp, 1500, 1), 31);
}

TEST(ProtocolTest, NoneKeepsTheMessageBitsAndCutsAtTheMtu) {
  const auto f = MakePacketFormat({}, 1000);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->MessageWireBits(2500), 2500);
  EXPECT_EQ(f->Packets(2500), 3);
  EXPECT_EQ(f->Packets(0), 1);
  EXPECT_EQ(f->MessageWireBits(0), 0);
  // A bit count that is not whole bytes is fine without a protocol.
  EXPECT_TRUE(MakePacketFormat({}, 1001).has_value());
}

TEST(ProtocolTest, AnMtuThatLeavesNoPayloadIsRefused) {
  const ProtocolOptions tcp{ProtocolKind::kTcp, Framing::kEthernet, true};
  EXPECT_FALSE(MakePacketFormat(tcp, 52 * 8).has_value());        // headers only
  EXPECT_TRUE(MakePacketFormat(tcp, 53 * 8).has_value());         // one byte of payload
  EXPECT_FALSE(MakePacketFormat(tcp, 1500 * 8 + 1).has_value());  // not whole bytes
  EXPECT_FALSE(MakePacketFormat({}, -8).has_value());
}

TEST(ProtocolTest, WireBitsSaturateInsteadOfOverflowing) {
  const auto f = MakePacketFormat({ProtocolKind::kTcp, Framing::kEthernet, true}, 53 * 8);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->MessageWireBits(int64_t{1} << 61), std::numeric_limits<int64_t>::max());
}

}  // namespace
}  // namespace commsim
