// NetworkKeys: the network model keys shared by a scenario's `network` object and the top level
// of a `commsim net` spec.
//
//   model     "flow" | "packet" | "message"   how messages become time (sim/network.h)
//   queue     "fq" | "fifo"                   packet model: fair queueing or FIFO at each link
//   mtu       bits or e.g. "1500B"            packet: packet size (protocol none) or IP MTU;
//                                             0 = the protocol's default (1500 B, RoCE 4096 B)
//   protocol  "none" | "tcp" | "udp" | "roce" header bytes per packet (sim/protocol.h)
//   framing   "ethernet" | "ethernet_wire" | "ppp" | "none"   link-layer bytes per packet
//   tcp_timestamps (true)                     12 more header bytes per TCP segment
//   tcp_handshake (false)                     tcp: one round trip before every message
//   tcp_slow_start (false)                    tcp, flow model: initial window 10 segments
// Backward compatibility: a document that gives `mtu` but no `model` keeps its old meaning:
// mtu 0 = "message" (whole messages), mtu > 0 = "packet" (queue as given, default fq). Without
// either key the model is kDefaultNetworkModel.
#ifndef COMMSIM_SCENARIOS_NETWORK_KEYS_H_
#define COMMSIM_SCENARIOS_NETWORK_KEYS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/params.h"
#include "scenarios/json_config.h"
#include "sim/network.h"

namespace commsim {

inline constexpr std::string_view kDefaultNetworkModel = "flow";

struct NetworkKeys {
  std::string model{kDefaultNetworkModel};
  std::string queue = "fq";
  int64_t mtu_bits = 0;
  std::string protocol = "none";
  std::string framing = "ethernet";
  bool tcp_timestamps = true;
  bool tcp_handshake = false;
  bool tcp_slow_start = false;
};

// Describes the keys to a ParamVisitor (reading, writing, `commsim list`, docs tables).
void DescribeNetworkKeys(ParamVisitor& v, NetworkKeys& keys);

// After ReadConfig: applies the backward-compatible model rule from the keys present in `object`
// (the JSON object read, or null), checks that the mtu suits the protocol (errors at
// `pointer`/mtu), and returns the options. keys.model is updated so the resolved form states it.
NetworkOptions ResolveNetworkKeys(NetworkKeys& keys, const nlohmann::json* object,
                                  const std::string& pointer, ErrorList& errors);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_NETWORK_KEYS_H_
