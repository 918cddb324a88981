#include "algorithms/ps/sgd.h"

#include "compression/registry.h"

namespace commsim {

void SgdConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v);
  v.Real("momentum", momentum, Range::ClosedOpen(0, 1), "heavy-ball momentum mu (0 = none)");
  DescribeVerifyReplicas(v);
}

void SgdConfig::QsgdDefaults(SgdConfig& c) { c.uplink = CompressorSpec("qsgd"); }

SgdRule::SgdRule(const SgdConfig& config) : ModelBroadcastRule(config, config.momentum) {}

Message SgdRule::WorkerEncode(int /*w*/, GradVec grad, double /*step*/, Rng& rng) {
  return uplink().Encode(grad, rng);
}

std::unique_ptr<ChunkEncoder> SgdRule::WorkerChunkEncoder(int /*w*/, Rng& rng) {
  return uplink().ChunkEncodeWithRng(dim(), rng, nullptr);
}

}  // namespace commsim
