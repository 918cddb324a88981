#include "algorithms/ps/memsgd.h"

#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"

namespace commsim {

MemSgdConfig::MemSgdConfig() : uplink(CompressorSpec("top_k")), downlink(CompressorSpec("identity")) {}

void MemSgdConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v, uplink, downlink);
  DescribeVerifyReplicas(v, verify_replicas);
  DescribePrecision(v, precision);
}

MemSgdRule::MemSgdRule(const MemSgdConfig& config)
    : ModelBroadcastRule(config.uplink, config.downlink, 0.0, config.verify_replicas),
      single_(IsSinglePrecision(config.precision)) {}

void MemSgdRule::InitWorkers(int workers, int64_t dim) {
  memory_.Init(workers, dim, single_);
}

// p_i = m_i + gamma g_i (in grad); then m_i <- p_i - c_i.
Message MemSgdRule::WorkerEncode(int w, GradVec grad, double step, Rng& rng) {
  grad *= step;
  memory_.AddTo(w, grad, /*subtract=*/false);
  return memory_.EncodeAndKeep(uplink(), w, grad, -1.0, rng);
}

void MemSgdRule::Extra(std::map<std::string, double>& out) const {
  double sum = 0;
  for (int w = 0; w < memory_.size(); ++w) sum += memory_.SquaredNorm(w);
  out["memory_sq"] = sum / static_cast<double>(memory_.size());
}

}  // namespace commsim
