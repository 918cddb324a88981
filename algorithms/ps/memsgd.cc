#include "algorithms/ps/memsgd.h"

#include "algorithms/ps/sgd.h"
#include "compression/registry.h"

namespace commsim {

void MemSgdConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v);
  DescribeStorage(v);
}

MemSgdRule::MemSgdRule(const MemSgdConfig& config)
    : ModelBroadcastRule(config, 0.0), memory_(config.single()) {}

void MemSgdRule::InitWorkers(int workers, int64_t dim) { memory_.Init(workers, dim); }

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
