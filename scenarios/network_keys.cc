#include "scenarios/network_keys.h"

#include <fmt/format.h>

#include <algorithm>

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
  if (k.mtu_bits >= 0 && !MakePacketFormat(o.protocol, k.mtu_bits)) {
    errors.Add(pointer + "/mtu",
               fmt::format("protocol \"{}\" needs a whole number of bytes, more than its IP and "
                           "transport headers, got {} bits",
                           k.protocol, k.mtu_bits));
  }
  return o;
}

}  // namespace commsim
