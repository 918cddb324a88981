#include "algorithms/ps/ps_keys.h"

#include <array>

#include "base/check.h"
#include "compression/registry.h"

namespace commsim {

PsLinkKeys::PsLinkKeys(std::string_view uplink_compressor, std::string_view downlink_compressor)
    : uplink(CompressorSpec(uplink_compressor)), downlink(CompressorSpec(downlink_compressor)) {}

void PsLinkKeys::DescribeLinks(ParamVisitor& v) {
  v.Component("uplink", uplink, "compressor for worker -> server messages");
  v.Component("downlink", downlink, "compressor for server -> worker messages");
}

void PsLinkKeys::DescribeVerifyReplicas(ParamVisitor& v, std::string_view help) {
  v.Bool("verify_replicas", verify_replicas,
         help.empty()
             ? "debug: every worker keeps its own model copy and checks it bit for bit every round"
             : help);
}

bool PsStateKeys::single() const {
  COMMSIM_CHECK(precision == "float64" || precision == "float32", "precision {}", precision);
  return precision == "float32";
}

void PsStateKeys::DescribeStorage(ParamVisitor& v, std::string_view verify_help) {
  DescribeVerifyReplicas(v, verify_help);
  static constexpr std::array<std::string_view, 2> kChoices = {"float64", "float32"};
  v.Text("precision", precision, kChoices,
         "storage of the per-worker state vectors (float32: half the memory, rounded on store)");
}

}  // namespace commsim
