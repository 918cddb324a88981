#include "scenarios/network_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace commsim {
namespace {

template <size_t N>
int IndexOf(const std::array<std::string_view, N>& names, const std::string& value) {
  const auto it = std::find(names.begin(), names.end(), value);
  return it == names.end() ? 0 : static_cast<int>(it - names.begin());
}

}  // namespace

void DescribeNetworkKeys(ParamVisitor& v, NetworkKeys& k) {
  v.Text("model", k.model, kNetworkModelNames,
         "flow: max-min fair sharing; packet: packets; message: whole messages, "
         "store-and-forward");
  v.Text("queue", k.queue, kQueueNames, "packet model: fair queueing (fq) or FIFO at each link");
  v.Int("mtu", k.mtu_bits, Range::AtLeast(0),
        "packet size (protocol none) or IP MTU; 0 = the protocol's default (1500B, roce 4096B)",
        Unit::kBits);
  v.Text("protocol", k.protocol, kProtocolNames, "header bytes added to every packet");
  v.Text("framing", k.framing, kFramingNames,
         "link-layer bytes per packet (ethernet_wire adds preamble and gap)");
  v.Bool("tcp_timestamps", k.tcp_timestamps, "TCP timestamp option: 12 more bytes per segment");
  v.Bool("tcp_handshake", k.tcp_handshake,
         "tcp: a connection set-up (one round trip) before every message; off = persistent");
  v.Bool("tcp_slow_start", k.tcp_slow_start,
         "tcp, flow model: window of 10 segments doubling every round trip");
}

NetworkOptions ResolveNetworkKeys(NetworkKeys& k, const nlohmann::json* object,
                                  const std::string& pointer, ErrorList& errors) {
  const bool has_model = object != nullptr && object->is_object() && object->contains("model");
  const bool has_mtu = object != nullptr && object->is_object() && object->contains("mtu");
  if (!has_model && has_mtu) k.model = k.mtu_bits > 0 ? "packet" : "message";
  NetworkOptions o;
  o.model = static_cast<NetworkModel>(IndexOf(kNetworkModelNames, k.model));
  o.queue = static_cast<QueueDiscipline>(IndexOf(kQueueNames, k.queue));
  o.mtu_bits = k.mtu_bits;
  o.protocol.kind = static_cast<ProtocolKind>(IndexOf(kProtocolNames, k.protocol));
  o.protocol.framing = static_cast<Framing>(IndexOf(kFramingNames, k.framing));
  o.protocol.tcp_timestamps = k.tcp_timestamps;
  o.protocol.tcp_handshake = k.tcp_handshake;
  o.protocol.tcp_slow_start = k.tcp_slow_start;
  for (const auto& [key, on] : {std::pair{"tcp_handshake", k.tcp_handshake},
                                std::pair{"tcp_slow_start", k.tcp_slow_start}}) {
    if (on && o.protocol.kind != ProtocolKind::kTcp) {
      errors.Add(pointer + "/" + key,
                 fmt::format("needs protocol \"tcp\", got protocol \"{}\"", k.protocol));
    }
  }
  if (k.tcp_slow_start && o.model != NetworkModel::kFlow) {
    errors.Add(pointer + "/tcp_slow_start",
               fmt::format("only the flow model simulates slow start, got model \"{}\"", k.model));
  }
  if (k.mtu_bits >= 0 && !MakePacketFormat(o.protocol, k.mtu_bits)) {
    errors.Add(pointer + "/mtu",
               fmt::format("protocol \"{}\" needs a whole number of bytes, more than its IP and "
                           "transport headers, got {} bits",
                           k.protocol, k.mtu_bits));
  }
  return o;
}

}  // namespace commsim
