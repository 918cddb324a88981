// The ns-3 side of the validation suite: the built network and the two ways of moving a flow.
//
// TcpTransport (TCP NewReno, configured in ns3_net.cc): one connection per (src, dst) pair,
//   reused by every flow of that pair (a byte stream: a flow is delivered when the receiver has
//   read all bytes up to its end). By default every connection is opened at t = 0 and the round
//   starts at t0 (persistent connections: no handshake inside the round; the congestion window
//   still starts at the initial window, so slow start is paid). With connect_on_use the
//   connection is opened when its first flow starts, so the round also pays the handshake.
//   Multicast is not possible over TCP: Start() with several destinations throws.
// UdpTransport: each flow is cut into datagrams of at most 1472 payload bytes (a 1500-byte IP
//   packet). Each host paces its datagrams at the rate of its own link (an ideal NIC: no queue
//   builds at the sender), taking its active flows round-robin (fair) or one after the other in
//   start order (fifo), so there is no slow start and no retransmission: a lost datagram leaves
//   its flow undelivered. Multicast: one datagram stream to a group address, replicated by the
//   switches (static multicast routes along the tree away from the server).
// Times seen by the driver are simulator time minus t0.
#ifndef COMMSIM_BENCH_VALIDATION_NS3_TRANSPORTS_H_
#define COMMSIM_BENCH_VALIDATION_NS3_TRANSPORTS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "net_case.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "pattern_driver.h"

namespace validation {

struct Ns3Net {
  const NetCase* net = nullptr;
  ns3::NodeContainer nodes;
  std::vector<ns3::Ipv4Address> host_address;  // per host: its first link's address
  // Per edge: the devices at its a and b ends.
  std::vector<std::pair<ns3::Ptr<ns3::NetDevice>, ns3::Ptr<ns3::NetDevice>>> edge_devices;
};

using DeliveredFn = std::function<void(int id, int dst)>;

class TcpTransport final : public Transport {
 public:
  TcpTransport(const Ns3Net& ns3net, double t0_s, bool connect_on_use);
  ~TcpTransport() override;
  void set_on_delivered(DeliveredFn fn) { on_delivered_ = std::move(fn); }
  // Opens the connections now (call at t = 0). REQUIRES: !connect_on_use.
  void ConnectAll(const std::vector<std::pair<int, int>>& pairs);
  // Connections whose both ends are established.
  int established() const;
  double NowS() const override;
  void Start(int id, int src, const std::vector<int>& dsts, uint64_t bytes) override;

  class Connection;

 private:
  Connection& Open(int src, int dst);

  const Ns3Net& ns3net_;
  double t0_s_;
  bool connect_on_use_;
  DeliveredFn on_delivered_;
  std::map<std::pair<int, int>, std::unique_ptr<Connection>> connections_;
};

class UdpTransport final : public Transport {
 public:
  static constexpr uint32_t kPayloadBytes = 1472;  // 1500 - 20 (IPv4) - 8 (UDP)
  static constexpr uint32_t kOverheadBytes = 30;   // IPv4 + UDP + 2 bytes of PPP

  UdpTransport(const Ns3Net& ns3net, double t0_s, bool fair);
  ~UdpTransport() override;
  void set_on_delivered(DeliveredFn fn) { on_delivered_ = std::move(fn); }
  // Adds the multicast routes from the server to every worker. Call before the run.
  void SetUpMulticast();
  double NowS() const override;
  void Start(int id, int src, const std::vector<int>& dsts, uint64_t bytes) override;

  struct Sender;
  struct Receiver;

 private:
  void SendNext(int host);

  const Ns3Net& ns3net_;
  double t0_s_;
  bool fair_;
  DeliveredFn on_delivered_;
  std::vector<std::unique_ptr<Sender>> senders_;  // per host
  std::vector<std::unique_ptr<Receiver>> receivers_;
};

}  // namespace validation

#endif  // COMMSIM_BENCH_VALIDATION_NS3_TRANSPORTS_H_
