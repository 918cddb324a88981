#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "ns3/core-module.h"
#include "ns3_transports.h"

namespace validation {

using ns3::Ptr;
using ns3::Socket;

// One TCP connection src -> dst: a listening socket at dst (its own port), the accepted socket,
// and the sending socket at src. Bytes not yet accepted by the send buffer wait in pending_.
class TcpTransport::Connection {
 public:
  Connection(const Ns3Net& n, int src, int dst, uint16_t port, const DeliveredFn& delivered)
      : dst_(dst), delivered_(delivered) {
    listener_ = Socket::CreateSocket(n.nodes.Get(static_cast<uint32_t>(dst)),
                                     ns3::TcpSocketFactory::GetTypeId());
    listener_->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), port));
    listener_->Listen();
    listener_->SetAcceptCallback(ns3::MakeNullCallback<bool, Ptr<Socket>, const ns3::Address&>(),
                                 ns3::MakeCallback(&Connection::OnAccept, this));
    tx_ = Socket::CreateSocket(n.nodes.Get(static_cast<uint32_t>(src)),
                               ns3::TcpSocketFactory::GetTypeId());
    tx_->Bind();
    tx_->SetConnectCallback(ns3::MakeCallback(&Connection::OnConnected, this),
                            ns3::MakeCallback(&Connection::OnConnectFailed, this));
    tx_->SetSendCallback(ns3::MakeCallback(&Connection::OnSendSpace, this));
    tx_->Connect(ns3::InetSocketAddress(n.host_address[static_cast<size_t>(dst)], port));
  }
  ~Connection() {
    for (const Ptr<Socket>& s : {listener_, tx_, rx_}) {
      if (s) s->Close();
    }
  }

  bool established() const { return connected_ && rx_; }

  // Queues `bytes` for flow `id`; it is delivered when the receiver has read them all.
  void Queue(int id, uint64_t bytes) {
    queued_ += bytes;
    pending_ += bytes;
    ends_.emplace_back(queued_, id);
    Fill();
  }

 private:
  void Fill() {
    while (connected_ && pending_ > 0) {
      const uint32_t room = tx_->GetTxAvailable();
      if (room == 0) return;
      const auto size = static_cast<uint32_t>(std::min<uint64_t>(pending_, room));
      const int sent = tx_->Send(ns3::Create<ns3::Packet>(size));
      if (sent <= 0) return;
      pending_ -= static_cast<uint64_t>(sent);
    }
  }
  void OnConnected(Ptr<Socket>) {
    connected_ = true;
    Fill();
  }
  void OnConnectFailed(Ptr<Socket>) { throw std::runtime_error("ns-3: a TCP connection failed"); }
  void OnSendSpace(Ptr<Socket>, uint32_t) { Fill(); }
  void OnAccept(Ptr<Socket> socket, const ns3::Address&) {
    rx_ = socket;
    rx_->SetRecvCallback(ns3::MakeCallback(&Connection::OnRead, this));
  }
  void OnRead(Ptr<Socket> socket) {
    while (Ptr<ns3::Packet> p = socket->Recv()) received_ += p->GetSize();
    while (!ends_.empty() && ends_.front().first <= received_) {
      const int id = ends_.front().second;
      ends_.pop_front();
      delivered_(id, dst_);
    }
  }

  int dst_;
  const DeliveredFn& delivered_;
  Ptr<Socket> listener_, tx_, rx_;
  bool connected_ = false;
  uint64_t queued_ = 0;                        // bytes of all flows queued so far
  uint64_t pending_ = 0;                       // bytes not yet in the send buffer
  uint64_t received_ = 0;                      // bytes read by the receiver
  std::deque<std::pair<uint64_t, int>> ends_;  // (stream offset of a flow's end, flow id)
};

TcpTransport::TcpTransport(const Ns3Net& ns3net, double t0_s, bool connect_on_use)
    : ns3net_(ns3net), t0_s_(t0_s), connect_on_use_(connect_on_use) {}

TcpTransport::~TcpTransport() = default;

TcpTransport::Connection& TcpTransport::Open(int src, int dst) {
  auto& slot = connections_[{src, dst}];
  if (!slot) {
    const auto port = static_cast<uint16_t>(10000 + connections_.size());
    if (connections_.size() > 50000) throw std::runtime_error("ns-3: too many TCP connections");
    slot = std::make_unique<Connection>(ns3net_, src, dst, port, on_delivered_);
  }
  return *slot;
}

void TcpTransport::ConnectAll(const std::vector<std::pair<int, int>>& pairs) {
  for (const auto& [src, dst] : pairs) Open(src, dst);
}

int TcpTransport::established() const {
  return static_cast<int>(std::count_if(connections_.begin(), connections_.end(),
                                        [](const auto& c) { return c.second->established(); }));
}

double TcpTransport::NowS() const { return ns3::Simulator::Now().GetSeconds() - t0_s_; }

void TcpTransport::Start(int id, int src, const std::vector<int>& dsts, uint64_t bytes) {
  if (dsts.size() != 1) throw std::runtime_error("ns-3: TCP cannot multicast");
  const auto it = connections_.find({src, dsts[0]});
  if (it == connections_.end() && !connect_on_use_) {
    throw std::runtime_error("ns-3: no connection opened for flow " + std::to_string(id));
  }
  (it == connections_.end() ? Open(src, dsts[0]) : *it->second).Queue(id, bytes);
}

}  // namespace validation
