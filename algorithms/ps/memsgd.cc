#include "algorithms/ps/memsgd.h"

#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"

namespace commsim {

MemSgdConfig::MemSgdConfig() : uplink(CompressorSpec("top_k")), downlink(CompressorSpec("identity")) {}

void MemSgdConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v, uplink, downlink);
  DescribeVerifyReplicas(v, verify_replicas);
}

MemSgdRule::MemSgdRule(const MemSgdConfig& config)
    : ModelBroadcastRule(config.uplink, config.downlink, 0.0, config.verify_replicas) {}

void MemSgdRule::InitWorkers(int workers, int64_t dim) {
  memory_.assign(workers, Eigen::VectorXd::Zero(dim));
}

// p = m + step g, in grad's buffer (the rule's scratch: workers encode concurrently).
Message MemSgdRule::WorkerEncode(int w, ScratchVec grad, double step, Rng& rng) {
  Eigen::VectorXd& m = memory_[w];
  Eigen::Ref<Eigen::VectorXd> p = grad;
  p = m + step * p;
  // m <- p - c, delivered by the encoder from its own pass.
  return uplink().EncodeWithDecoded(p, rng, DecodeTarget(m, p, -1.0));
}

void MemSgdRule::Extra(std::map<std::string, double>& out) const {
  double sum = 0;
  for (const Eigen::VectorXd& m : memory_) sum += m.squaredNorm();
  out["memory_sq"] = sum / static_cast<double>(memory_.size());
}

}  // namespace commsim
