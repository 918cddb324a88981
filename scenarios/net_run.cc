#include "scenarios/net_run.h"

#include <fmt/format.h>

#include <algorithm>

#include "sim/engine.h"

namespace commsim {
namespace {

std::string Seconds(SimTime t) { return fmt::format("{:.12g}", t.seconds()); }

// "whole messages", "mtu 12000 bits" (FIFO packets), "mtu 12000 bits, fair queueing", "flow
// model", then the protocol when there is one.
std::string ModelText(const NetworkOptions& o) {
  std::string text;
  const int64_t mtu = o.mtu_bits > 0 ? o.mtu_bits : DefaultMtuBits(o.protocol.kind);
  switch (o.model.value_or(NetworkModel::kMessage)) {
    case NetworkModel::kMessage:
      text = "whole messages";
      break;
    case NetworkModel::kPacket:
      text = fmt::format("mtu {} bits", mtu);
      if (o.queue == QueueDiscipline::kFairQueue) text += ", fair queueing";
      break;
    case NetworkModel::kFlow:
      text = "flow model (max-min)";
      break;
  }
  if (o.protocol.kind != ProtocolKind::kNone) {
    text += fmt::format(", {} over {}", kProtocolNames[static_cast<size_t>(o.protocol.kind)],
                        kFramingNames[static_cast<size_t>(o.protocol.framing)]);
  }
  return text;
}

}  // namespace

NetReport RunNetSpec(const NetSpec& spec) {
  NetReport report{BuildNetTopology(spec), {}, {}, SimTime(), 0, 0};
  Engine engine;
  Network network(engine, report.topology, spec.network);
  report.messages = RunTraffic(engine, network, spec.pattern, spec.message_bits);
  for (size_t l = 0; l < report.topology.links().size(); ++l) {
    report.links.push_back(network.link_stats(static_cast<int>(l)));
  }
  for (const MessageRecord& m : report.messages) report.end = std::max(report.end, m.delivered);
  report.bits_sent = network.bits_sent_total();
  report.events = engine.events_processed();
  return report;
}

std::string FormatNetReport(const NetSpec& spec, const NetReport& report, bool all_links) {
  const Topology& t = report.topology;
  std::string out = fmt::format(
      "# commsim net: {} on {} ({} hosts + {} switch nodes, {} links), message {} bits, {}\n",
      TrafficPatternNames()[static_cast<size_t>(spec.pattern)], t.kind(), t.num_hosts(),
      t.num_nodes() - t.num_hosts(), t.links().size(), spec.message_bits, ModelText(spec.network));
  out += "# messages\n";
  out += fmt::format("{:>6} {:<9} {:<8} {:<8} {:>12} {:>16} {:>16}\n", "id", "phase", "src", "dst",
                     "bits", "sent_s", "delivered_s");
  for (const MessageRecord& m : report.messages) {
    out += fmt::format("{:>6} {:<9} {:<8} {:<8} {:>12} {:>16} {:>16}\n", m.message, m.phase,
                       t.node_name(m.src), t.node_name(m.dst), m.bits, Seconds(m.sent),
                       Seconds(m.delivered));
  }
  out += "# links (utilisation = busy time / end time)\n";
  out += fmt::format("{:>5} {:<8} {:<8} {:>13} {:>11} {:>9} {:>9} {:>13} {:>16} {:>11}\n", "link",
                     "from", "to", "bandwidth_bps", "latency_s", "messages", "packets", "bits",
                     "busy_s", "utilisation");
  for (size_t l = 0; l < t.links().size(); ++l) {
    const LinkStats& s = report.links[l];
    if (!all_links && s.packets == 0) continue;
    const Link& link = t.links()[l];
    const double utilisation =
        report.end > SimTime::Zero() ? s.busy_time.seconds() / report.end.seconds() : 0.0;
    out += fmt::format(
        "{:>5} {:<8} {:<8} {:>13.6g} {:>11.6g} {:>9} {:>9} {:>13} {:>16} {:>11.4f}\n", l,
        t.node_name(link.from), t.node_name(link.to), link.bandwidth_bps, link.latency_s,
        s.messages, s.packets, s.bits, Seconds(s.busy_time), utilisation);
  }
  out += fmt::format("# end {} s, {} messages, {} bits sent, {} events\n", Seconds(report.end),
                     report.messages.size(), report.bits_sent, report.events);
  return out;
}

}  // namespace commsim
