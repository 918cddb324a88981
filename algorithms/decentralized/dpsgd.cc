#include "algorithms/decentralized/dpsgd.h"

#include "algorithms/decentralized/dpsgd_rule.h"
#include "algorithms/registry.h"

namespace commsim {

DpsgdConfig::DpsgdConfig() : compressor(CompressorSpec("identity")) {}

void DpsgdConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "how the model is sent (identity = full precision)");
  common.Describe(v);
}

void DpsgdAlgorithm::Run(const RunSetup& setup, std::vector<IterationRecord>* records,
                         RunSummary* summary) const {
  RunDecentralized(
      setup, "dpsgd", config_.common, config_.compressor,
      [](const NodeRuleContext& context, const Eigen::Ref<const Eigen::VectorXd>& x0) {
        return std::make_unique<DpsgdRule>(context, x0);
      },
      records, summary);
}

}  // namespace commsim
