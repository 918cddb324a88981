#include <algorithm>
#include <deque>
#include <stdexcept>

#include "ns3/core-module.h"
#include "ns3_transports.h"

namespace validation {
namespace {

const ns3::Ipv4Address kGroup("225.1.2.4");

uint16_t PortOf(int id) {
  if (id > 40000) throw std::runtime_error("ns-3: too many UDP flows for one port each");
  return static_cast<uint16_t>(20000 + id);
}

// The bandwidth of the first link at `host`, its NIC rate.
double NicRateBps(const NetCase& net, int host) {
  for (const Edge& e : net.edges) {
    if (e.a == host || e.b == host) return e.bandwidth_bps;
  }
  throw std::runtime_error("ns-3: host without a link");
}

}  // namespace

using ns3::Ptr;
using ns3::Socket;

struct UdpTransport::Receiver {
  int id = 0;
  int dst = 0;
  uint64_t expected = 0;
  uint64_t received = 0;
  bool done = false;
  Ptr<Socket> socket;
  const DeliveredFn* delivered = nullptr;

  void OnRead(Ptr<Socket> s) {
    while (Ptr<ns3::Packet> p = s->Recv()) received += p->GetSize();
    if (!done && received >= expected) {
      done = true;
      (*delivered)(id, dst);
    }
  }
};

struct UdpTransport::Sender {
  struct Flow {
    Ptr<Socket> socket;
    uint64_t left = 0;
  };
  double rate_bps = 0;
  bool busy = false;
  std::deque<Flow> flows;
};

UdpTransport::UdpTransport(const Ns3Net& ns3net, double t0_s, bool fair)
    : ns3net_(ns3net), t0_s_(t0_s), fair_(fair) {
  for (int h = 0; h < ns3net.net->hosts; ++h) {
    senders_.push_back(std::make_unique<Sender>());
    senders_.back()->rate_bps = NicRateBps(*ns3net.net, h);
  }
}

UdpTransport::~UdpTransport() = default;

double UdpTransport::NowS() const { return ns3::Simulator::Now().GetSeconds() - t0_s_; }

void UdpTransport::SetUpMulticast() {
  const NetCase& net = *ns3net_.net;
  const std::vector<int> hops = HopsTo(net, net.server);
  ns3::Ipv4StaticRoutingHelper routing;
  routing.SetDefaultMulticastRoute(ns3net_.nodes.Get(static_cast<uint32_t>(net.server)), [&] {
    for (size_t e = 0; e < net.edges.size(); ++e) {
      if (net.edges[e].a == net.server) return ns3net_.edge_devices[e].first;
      if (net.edges[e].b == net.server) return ns3net_.edge_devices[e].second;
    }
    throw std::runtime_error("ns-3: server without a link");
  }());
  for (int sw = net.hosts; sw < net.nodes(); ++sw) {
    Ptr<ns3::NetDevice> input;
    ns3::NetDeviceContainer outputs;
    for (size_t e = 0; e < net.edges.size(); ++e) {
      const Edge& edge = net.edges[e];
      if (edge.a != sw && edge.b != sw) continue;
      const int other = edge.a == sw ? edge.b : edge.a;
      const auto& dev =
          edge.a == sw ? ns3net_.edge_devices[e].first : ns3net_.edge_devices[e].second;
      if (hops[static_cast<size_t>(other)] < hops[static_cast<size_t>(sw)]) input = dev;
      if (hops[static_cast<size_t>(other)] > hops[static_cast<size_t>(sw)]) outputs.Add(dev);
    }
    routing.AddMulticastRoute(ns3net_.nodes.Get(static_cast<uint32_t>(sw)),
                              ns3net_.host_address[static_cast<size_t>(net.server)], kGroup, input,
                              outputs);
  }
}

void UdpTransport::Start(int id, int src, const std::vector<int>& dsts, uint64_t bytes) {
  const uint16_t port = PortOf(id);
  for (int dst : dsts) {
    auto r = std::make_unique<Receiver>();
    r->id = id;
    r->dst = dst;
    r->expected = bytes;
    r->delivered = &on_delivered_;
    r->socket = Socket::CreateSocket(ns3net_.nodes.Get(static_cast<uint32_t>(dst)),
                                     ns3::UdpSocketFactory::GetTypeId());
    r->socket->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), port));
    r->socket->SetRecvCallback(ns3::MakeCallback(&Receiver::OnRead, r.get()));
    receivers_.push_back(std::move(r));
  }
  Sender::Flow flow;
  flow.socket = Socket::CreateSocket(ns3net_.nodes.Get(static_cast<uint32_t>(src)),
                                     ns3::UdpSocketFactory::GetTypeId());
  flow.socket->Bind();
  const ns3::Ipv4Address to =
      dsts.size() == 1 ? ns3net_.host_address[static_cast<size_t>(dsts[0])] : kGroup;
  flow.socket->Connect(ns3::InetSocketAddress(to, port));
  flow.left = bytes;
  Sender& sender = *senders_[static_cast<size_t>(src)];
  sender.flows.push_back(flow);
  if (!sender.busy) SendNext(src);
}

// Sends one datagram of the host's current flow, then waits the datagram's wire time.
void UdpTransport::SendNext(int host) {
  Sender& sender = *senders_[static_cast<size_t>(host)];
  if (sender.flows.empty()) {
    sender.busy = false;
    return;
  }
  sender.busy = true;
  Sender::Flow flow = sender.flows.front();
  sender.flows.pop_front();
  const auto size = static_cast<uint32_t>(std::min<uint64_t>(flow.left, kPayloadBytes));
  if (flow.socket->Send(ns3::Create<ns3::Packet>(size)) < 0) {
    throw std::runtime_error("ns-3: a UDP send failed");
  }
  flow.left -= size;
  if (flow.left > 0) {
    if (fair_) {
      sender.flows.push_back(flow);
    } else {
      sender.flows.push_front(flow);
    }
  } else {
    flow.socket->Close();
  }
  const double wire_s = 8.0 * (size + kOverheadBytes) / sender.rate_bps;
  ns3::Simulator::Schedule(ns3::Seconds(wire_s), &UdpTransport::SendNext, this, host);
}

}  // namespace validation
