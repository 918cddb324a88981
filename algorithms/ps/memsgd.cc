#include "algorithms/ps/memsgd.h"

#include "algorithms/ps/sgd.h"
#include "compression/registry.h"

namespace commsim {

void MemSgdConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v);
  v.Real("momentum", momentum, Range::ClosedOpen(0, 1),
         "momentum correction mu with factor masking (Deep Gradient Compression; 0: none)");
  DescribeStorage(v);
}

void MemSgdConfig::DgcDefaults(MemSgdConfig& c) {
  c.uplink = CompressorSpec("dgc");
  c.momentum = 0.9;
}

MemSgdRule::MemSgdRule(const MemSgdConfig& config)
    : ModelBroadcastRule(config, 0.0),
      momentum_(config.momentum),
      memory_(config.single()),
      velocity_(config.single()) {}

void MemSgdRule::InitWorkers(int workers, int64_t dim) {
  memory_.Init(workers, dim);
  if (momentum_ > 0) velocity_.Init(workers, dim);
}

// p_i = m_i + gamma g_i (in grad; m_i + u_i with momentum); then m_i <- p_i - c_i.
Message MemSgdRule::WorkerEncode(int w, GradVec grad, double step, Rng& rng) {
  grad *= step;
  if (momentum_ > 0) velocity_.Momentum(w, grad, momentum_, /*nesterov=*/false);
  memory_.AddTo(w, grad, /*subtract=*/false);
  Message message = memory_.EncodeAndKeep(uplink(), w, grad, -1.0, rng);
  if (momentum_ > 0) {  // factor masking: grad is scratch now
    uplink().Decode(message, grad);
    memory_.ZeroWhere(w, grad);
    velocity_.ZeroWhere(w, grad);
  }
  return message;
}

void MemSgdRule::Extra(std::map<std::string, double>& out) const {
  double sum = 0;
  for (int w = 0; w < memory_.size(); ++w) sum += memory_.SquaredNorm(w);
  out["memory_sq"] = sum / static_cast<double>(memory_.size());
}

}  // namespace commsim
