// SendMessage / MulticastMessage: the payload travels with the send, the wire carries payload +
// header bits, and every receiver sees the sender's one immutable message.
#include "algorithms/message_send.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/network_test_util.h"

namespace commsim {
namespace {

// Hosts 0..n-1 on a star through one switch, 1 Gbit/s and 1 us everywhere.
Topology OneSwitchStar(int n) { return net_test::Star(n, 1e9, 1e-6, 1e9, 1e-6); }

TEST(MessageSendTest, TheReceiverGetsTheSendersMessageAndTheWireCarriesPayloadPlusHeader) {
  Engine engine;
  const Topology topology = OneSwitchStar(2);
  Network network(engine, topology);
  const Message* sent = nullptr;
  std::vector<const Message*> got;
  WireTally tally;
  {
    SharedMessage m = Share(Message{.payload_bits = 1000, .words = {0x2a, 7}});
    sent = m.get();
    SendMessage(network, 0, 1, std::move(m), 24, tally, [&](const SharedMessage& r) {
      got.push_back(r.get());
      EXPECT_EQ(r->words, (MessageWords{0x2a, 7}));
    });
  }  // the sender drops its handle: the message must live until it is delivered
  engine.Run();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], sent);
  EXPECT_EQ(network.bits_sent_total(), 1024);  // 1000 payload + 24 header, counted once
  // Two links (host 0 -> switch -> host 1), 1024 bits each.
  EXPECT_EQ(network.link_bits_total(), 2 * 1024);
  EXPECT_EQ(tally.bits, 1024);
  EXPECT_EQ(tally.bytes, 1024 / 8);  // no protocol: the wire carries the message bits alone
}

TEST(MessageSendTest, EveryMulticastDestinationSeesTheOneSharedMessage) {
  Engine engine;
  const Topology topology = OneSwitchStar(4);
  Network network(engine, topology);
  const SharedMessage m = Share(Message{.payload_bits = 64, .words = {1}});
  const std::vector<int> to = {1, 2, 3};
  std::vector<int> reached;
  WireTally tally;
  MulticastMessage(network, 0, to, m, 0, tally, [&](int dst, const SharedMessage& r) {
    EXPECT_EQ(r.get(), m.get()) << dst;
    reached.push_back(dst);
  });
  engine.Run();
  std::sort(reached.begin(), reached.end());
  EXPECT_EQ(reached, to);
  EXPECT_EQ(network.bits_sent_total(), 64);
  EXPECT_EQ(tally.bits, 64);    // a multicast counts once
  EXPECT_EQ(m.use_count(), 1);  // the network holds no handle after the last delivery
}

TEST(MessageSendTest, TheTallyCountsTheProtocolsPacketsAndNothingForAMessageToItsOwnHost) {
  Engine engine;
  const Topology topology = OneSwitchStar(2);
  NetworkOptions options;
  options.mtu_bits = 1500 * 8;
  options.protocol.kind = ProtocolKind::kTcp;  // 40 + 12 header bytes, Ethernet 18 per packet
  Network network(engine, topology, options);
  WireTally tally;
  // 3000 payload bytes + 1 header byte: TCP payload per packet 1500 - 52 = 1448 bytes, so three
  // packets (1448 + 1448 + 105 bytes), each with 52 + 18 bytes of headers and framing.
  SendMessage(network, 0, 1, Share(Message{.payload_bits = 3000 * 8}), 8, tally,
              [](const SharedMessage&) {});
  SendMessage(network, 1, 1, Share(Message{.payload_bits = 800}), 8, tally,
              [](const SharedMessage&) {});
  engine.Run();
  EXPECT_EQ(tally.bits, 3001 * 8);
  EXPECT_EQ(tally.bytes, 3001 + 3 * (52 + 18));
  // A message of 12 bits takes two bytes on the wire besides its packet's headers.
  WireTally odd;
  SendMessage(network, 0, 1, Share(Message{.payload_bits = 12}), 0, odd,
              [](const SharedMessage&) {});
  engine.Run();
  EXPECT_EQ(odd.bytes, 2 + 52 + 18);
}

}  // namespace
}  // namespace commsim
