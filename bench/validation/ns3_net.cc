// ns3_net CASE.json [--transport tcp|udp] [--queue fq|fifo] [--buffer BYTES] [--connect-on-use]
//   runs a validation case in ns-3 and prints its flows (format: pattern_driver.h).
//
// Network: one node per case node; every edge is a point-to-point link (DataRate = bandwidth,
// Delay = latency, MTU 1500, 2 bytes of PPP header per packet); switches are IPv4 routers with
// global (shortest-path) routing, so each flow follows the case's route. Every device has a
// one-packet device queue under a traffic-control queue disc that never drops (10^7 packets):
//   fq    FqCoDel with CoDel switched off (target 1000 s), set-associative hashing: per-flow
//         fair queueing (deficit round robin, quantum one MTU);
//   fifo  a FIFO queue disc: drop-tail without drops.
// TCP: NewReno, MSS 1448 with timestamps (1500-byte IP packets, 1502 bytes on the wire), SACK,
// initial window 10 segments, delayed ACKs (every 2nd segment), send and receive buffers of
// --buffer bytes (default 1 MB, 40 times the 25 kB bandwidth-delay product of a 1 Gbps,
// 200 us round trip: the window never limits a flow). Connections are opened at t = 0 and the
// round starts at t0 = 0.5 s (persistent connections), unless --connect-on-use.
// UDP: see ns3_transports.h. Exit code 2 when a flow was not delivered (a drop, or a stall).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/version-defines.h"
#include "ns3_transports.h"

namespace validation {
namespace {

using namespace ns3;

constexpr double kT0S = 0.5;
constexpr double kMaxRoundS = 3600;

struct Options {
  std::string case_path;
  bool tcp = true;
  bool fair = true;
  uint64_t buffer_bytes = 1u << 20;
  bool connect_on_use = false;
};

Options ParseOptions(int argc, char** argv) {
  Options o;
  const std::string usage =
      "usage: ns3_net CASE.json [--transport tcp|udp] [--queue fq|fifo] [--buffer BYTES] "
      "[--connect-on-use]";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--transport" && has_value) {
      const std::string v = argv[++i];
      if (v != "tcp" && v != "udp") throw CaseError("--transport: expected tcp or udp, got " + v);
      o.tcp = v == "tcp";
    } else if (a == "--queue" && has_value) {
      const std::string v = argv[++i];
      if (v != "fq" && v != "fifo") throw CaseError("--queue: expected fq or fifo, got " + v);
      o.fair = v == "fq";
    } else if (a == "--buffer" && has_value) {
      const std::string v = argv[++i];
      char* end = nullptr;
      o.buffer_bytes = std::strtoull(v.c_str(), &end, 10);
      if (*end != '\0' || o.buffer_bytes < 65536 || o.buffer_bytes > (1u << 30)) {
        throw CaseError("--buffer: expected bytes in [65536, 2^30], got " + v);
      }
    } else if (a == "--connect-on-use") {
      o.connect_on_use = true;
    } else if (o.case_path.empty() && a.rfind("--", 0) != 0) {
      o.case_path = a;
    } else {
      throw CaseError("unexpected argument " + a + "\n" + usage);
    }
  }
  if (o.case_path.empty()) throw CaseError(usage);
  return o;
}

void ConfigureTcp(const Options& o) {
  Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
  Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(o.buffer_bytes));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(o.buffer_bytes));
  Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
  Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
  Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
}

// Builds nodes, links, queue discs, addresses and routes; returns the queue discs.
QueueDiscContainer BuildNetwork(const NetCase& net, const Options& o, Ns3Net& out) {
  out.net = &net;
  out.nodes.Create(static_cast<uint32_t>(net.nodes()));
  InternetStackHelper stack;
  stack.Install(out.nodes);
  TrafficControlHelper tch;
  const QueueSizeValue limit(QueueSize("10000000p"));
  if (o.fair) {
    tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc", "MaxSize", limit, "Target", StringValue("1000s"),
                         "Interval", StringValue("2000s"), "EnableSetAssociativeHash",
                         BooleanValue(true));
  } else {
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", limit);
  }
  Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
  QueueDiscContainer queues;
  for (const Edge& e : net.edges) {
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate",
                           DataRateValue(DataRate(static_cast<uint64_t>(e.bandwidth_bps))));
    p2p.SetChannelAttribute("Delay", TimeValue(Seconds(e.latency_s)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
    NetDeviceContainer devices = p2p.Install(out.nodes.Get(static_cast<uint32_t>(e.a)),
                                             out.nodes.Get(static_cast<uint32_t>(e.b)));
    queues.Add(tch.Install(devices));
    addresses.Assign(devices);
    addresses.NewNetwork();
    out.edge_devices.emplace_back(devices.Get(0), devices.Get(1));
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
  for (int h = 0; h < net.hosts; ++h) {
    out.host_address.push_back(
        out.nodes.Get(static_cast<uint32_t>(h))->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal());
  }
  return queues;
}

uint64_t Drops(const Ns3Net& n, const QueueDiscContainer& queues) {
  uint64_t drops = 0;
  for (auto it = queues.Begin(); it != queues.End(); ++it) {
    drops += (*it)->GetStats().nTotalDroppedPackets;
  }
  for (const auto& [a, b] : n.edge_devices) {
    for (const auto& dev : {a, b}) {
      drops += DynamicCast<PointToPointNetDevice>(dev)->GetQueue()->GetTotalDroppedPackets();
    }
  }
  return drops;
}

int Run(int argc, char** argv) {
  const Options o = ParseOptions(argc, argv);
  const NetCase net = LoadNetCase(o.case_path);
  ConfigureTcp(o);
  Ns3Net ns3net;
  const QueueDiscContainer queues = BuildNetwork(net, o, ns3net);
  std::unique_ptr<Transport> transport;
  std::unique_ptr<PatternDriver> driver;
  auto on_delivered = [&driver](int id, int dst) {
    driver->Delivered(id, dst);
    if (driver->Done()) Simulator::Stop();
  };
  if (o.tcp) {
    auto tcp = std::make_unique<TcpTransport>(ns3net, kT0S, o.connect_on_use);
    tcp->set_on_delivered(on_delivered);
    driver = std::make_unique<PatternDriver>(net, *tcp);
    if (driver->Multicasts()) {
      std::fprintf(stderr, "error: %s: TCP cannot multicast (use --transport udp)\n",
                   o.case_path.c_str());
      return 1;
    }
    // Sockets may only send once the nodes are initialised, at the start of the run.
    if (!o.connect_on_use) {
      Simulator::ScheduleNow(
          [&driver, tcp = tcp.get()] { tcp->ConnectAll(driver->UnicastPairs()); });
    }
    const int pairs = static_cast<int>(driver->UnicastPairs().size());
    Simulator::Schedule(Seconds(kT0S), [&driver, tcp = tcp.get(), pairs, &o] {
      if (!o.connect_on_use && tcp->established() != pairs) {
        throw std::runtime_error("ns-3: connections not established before the round");
      }
      driver->Begin();
    });
    transport = std::move(tcp);
  } else {
    auto udp = std::make_unique<UdpTransport>(ns3net, kT0S, o.fair);
    udp->set_on_delivered(on_delivered);
    driver = std::make_unique<PatternDriver>(net, *udp);
    if (driver->Multicasts()) udp->SetUpMulticast();
    Simulator::Schedule(Seconds(kT0S), [&driver] { driver->Begin(); });
    transport = std::move(udp);
  }
  Simulator::Stop(Seconds(kT0S + kMaxRoundS));
  Simulator::Run();
  std::printf("# ns-3 3.%d: %s, %s queues, drops %llu\n", NS3_VERSION_MINOR,
              o.tcp ? (o.connect_on_use ? "TCP NewReno, connect on first use"
                                        : "TCP NewReno, persistent connections")
                    : "UDP paced at the NIC rate",
              o.fair ? "fair (FqCoDel without CoDel)" : "FIFO",
              static_cast<unsigned long long>(Drops(ns3net, queues)));
  const bool complete = driver->Print(stdout);
  Simulator::Destroy();
  return complete ? 0 : 2;
}

}  // namespace
}  // namespace validation

int main(int argc, char** argv) { return validation::MainWithErrors(argc, argv, validation::Run); }
