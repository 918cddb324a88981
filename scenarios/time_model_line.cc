#include "scenarios/time_model_line.h"

#include <fmt/format.h>

#include "sim/protocol.h"

namespace commsim {
namespace {

std::string NetworkPart(const NetworkOptions& network) {
  const NetworkModel model =
      network.model.value_or(network.mtu_bits > 0 ? NetworkModel::kPacket : NetworkModel::kMessage);
  std::string out =
      fmt::format("network {}, protocol {}", kNetworkModelNames[static_cast<size_t>(model)],
                  kProtocolNames[static_cast<size_t>(network.protocol.kind)]);
  if (network.protocol.kind != ProtocolKind::kNone) {
    out +=
        fmt::format(" ({} framing)", kFramingNames[static_cast<size_t>(network.protocol.framing)]);
  }
  return out;
}

std::string ComputePart(const ComputeTimeConfig& compute) {
  if (compute.mode == "fixed") return fmt::format("compute fixed {:g} s per step", compute.seconds);
  const std::string device =
      compute.device == "custom" ? fmt::format("{:g} FLOP/s", compute.flops_per_s) : compute.device;
  return fmt::format("compute FLOPs at {} peak x efficiency {:g}", device, compute.efficiency);
}

std::string CodecPart(const CodecKeys& codec) {
  if (codec.mode == "none") return "codec none (encode and decode take no time)";
  if (codec.mode == "measured") return "codec measured (wall time: not reproducible)";
  return fmt::format("codec model {}", codec.device);
}

}  // namespace

std::string TimeModelLine(const Scenario& s) {
  const std::string framework = s.framework.name == "ideal"
                                    ? "framework ideal (no per-call or per-message costs)"
                                    : fmt::format("framework {}", s.framework.name);
  return fmt::format("{}; {}; {}; overlap {}; {}", NetworkPart(s.network), ComputePart(s.compute),
                     CodecPart(s.codec), s.compute.overlap, framework);
}

}  // namespace commsim
