#include "algorithms/ps/sgd.h"

#include "algorithms/registry.h"

namespace commsim {

void DescribeLinks(ParamVisitor& v, ComponentSpec& uplink, ComponentSpec& downlink) {
  v.Component("uplink", uplink, "compressor for worker -> server messages");
  v.Component("downlink", downlink, "compressor for server -> worker messages");
}

void DescribeVerifyReplicas(ParamVisitor& v, bool& verify_replicas) {
  v.Bool("verify_replicas", verify_replicas,
         "debug: every worker keeps its own model copy and checks it bit for bit every round");
}

SgdConfig::SgdConfig() : uplink(CompressorSpec("identity")), downlink(CompressorSpec("identity")) {}

void SgdConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v, uplink, downlink);
  v.Real("momentum", momentum, Range::ClosedOpen(0, 1), "heavy-ball momentum mu (0 = none)");
  DescribeVerifyReplicas(v, verify_replicas);
}

void SgdConfig::QsgdDefaults(SgdConfig& c) { c.uplink = CompressorSpec("qsgd"); }

SgdRule::SgdRule(const SgdConfig& config)
    : ModelBroadcastRule(config.uplink, config.downlink, config.momentum,
                         config.verify_replicas) {}

Message SgdRule::WorkerEncode(int /*w*/, GradVec grad, double /*step*/, Rng& rng) {
  return uplink().Encode(grad, rng);
}

}  // namespace commsim
