// TCP start-up: connection set-up (all models) and slow start (flow model), by hand.
#include <gtest/gtest.h>

#include "sim/network.h"
#include "sim/topology_graph.h"

namespace commsim {
namespace {

SimTime AtPs(int64_t ps) { return SimTime::FromPs(ps); }

Topology OneLink(double bandwidth_bps, double latency_s) {
  ExplicitConfig c;
  c.edges = {0, 1};
  c.links.bandwidth_bps = bandwidth_bps;
  c.links.latency_s = latency_s;
  return ExplicitBuilder(c).Build(2);
}

NetworkOptions Tcp(NetworkModel model, bool handshake, bool slow_start) {
  NetworkOptions o;
  o.model = model;
  o.protocol.kind = ProtocolKind::kTcp;
  o.protocol.tcp_handshake = handshake;
  o.protocol.tcp_slow_start = slow_start;
  return o;
}

SimTime DeliveryOfOneMegabyte(const Topology& t, const NetworkOptions& o) {
  Engine engine;
  Network net(engine, t, o);
  SimTime at;
  net.Send(0, 1, 8'000'000, [&] { at = engine.Now(); });
  engine.Run();
  return at;
}

// 1 MB over TCP/Ethernet is 1,048,370 wire bytes: 8,386,960 ns at 1 Gbps. The handshake adds
// one round trip (2 x 10 us) before the first byte, in every model.
TEST(TcpStartupTest, HandshakeDelaysTheFirstByteByOneRoundTrip) {
  const Topology t = OneLink(1e9, 10e-6);
  for (NetworkModel m : {NetworkModel::kFlow, NetworkModel::kPacket, NetworkModel::kMessage}) {
    EXPECT_EQ(DeliveryOfOneMegabyte(t, Tcp(m, false, false)), AtPs(10'000'000 + 8'386'960'000));
    EXPECT_EQ(DeliveryOfOneMegabyte(t, Tcp(m, true, false)),
              AtPs(20'000'000 + 10'000'000 + 8'386'960'000));
  }
}

// Latency 1 ms, so the round trip is 2 ms and 10 segments of 1518 wire bytes (121,440 bits) per
// round trip is 60.72 Mbit/s. The flow starts at 1 ms; its cap doubles every 2 ms: 60.72,
// 121.44, 242.88, 485.76, 971.52 Mbit/s, then 1943 > 1000, uncapped from 11 ms. By then it has
// sent 121,440 x (1 + 2 + 4 + 8 + 16) = 3,764,640 bits; the other 4,622,320 take 4.62232 ms.
TEST(TcpStartupTest, SlowStartDoublesTheRateEveryRoundTrip) {
  const Topology t = OneLink(1e9, 1e-3);
  EXPECT_EQ(DeliveryOfOneMegabyte(t, Tcp(NetworkModel::kFlow, false, false)),
            AtPs(1'000'000'000 + 8'386'960'000));
  const SimTime at = DeliveryOfOneMegabyte(t, Tcp(NetworkModel::kFlow, false, true));
  const SimTime expected = AtPs(11'000'000'000 + 4'622'320'000);
  // At most one picosecond of rounding per rate change (six here).
  EXPECT_GE(at, expected);
  EXPECT_LE(at, expected + AtPs(6));
}

// When ten segments per round trip already exceed the link (short round trip), slow start
// changes nothing.
TEST(TcpStartupTest, SlowStartIsFreeWhenTheInitialWindowCoversThePath) {
  const Topology t = OneLink(1e9, 10e-6);
  EXPECT_EQ(DeliveryOfOneMegabyte(t, Tcp(NetworkModel::kFlow, false, true)),
            AtPs(10'000'000 + 8'386'960'000));
}

}  // namespace
}  // namespace commsim
