#include "algorithms/decentralized/choco.h"

#include "algorithms/compressors/qsgd.h"
#include "algorithms/decentralized/choco_rule.h"
#include "algorithms/registry.h"

namespace commsim {

ChocoConfig::ChocoConfig() : compressor(CompressorSpec("qsgd")) {
  auto& qsgd = static_cast<QsgdConfig&>(*compressor.config);
  qsgd.levels = 15;
  qsgd.coding = "fixed";
}

void ChocoConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "Q applied to x_half - x-hat (any compressor)");
  v.Real("gamma_c", gamma_c, Range::OpenClosed(0, 1),
         "consensus step size (tune with `commsim tune-consensus`)");
  v.Text("rescale", rescale, ChocoRescaleChoices(),
         "auto: divide an unbiased Q by tau = 1 + omega (CHOCO's contraction); none: use Q as is");
  common.Describe(v);
  v.Real("mu", common.mu, Range::NonNegative(),
         "l1 weight of the proximal step, added to the model's own l1 (0 = the model's only)");
}

void SetMalcomDefaults(ChocoConfig& config) {
  config.algorithm = "malcom";
  config.compressor = CompressorSpec("dithered");  // 15 levels, vector source code
}

void ChocoAlgorithm::Run(const RunSetup& setup, std::vector<IterationRecord>* records,
                         RunSummary* summary) const {
  const double gamma_c = config_.gamma_c;
  const std::string rescale = config_.rescale;
  RunDecentralized(
      setup, config_.algorithm, config_.common, config_.compressor,
      [gamma_c, &rescale](const NodeRuleContext& context,
                          const Eigen::Ref<const Eigen::VectorXd>& x0) {
        const double tau = ChocoScale(rescale, *context.compressor, context.dim);
        return std::make_unique<ChocoRule>(context, gamma_c, x0, tau);
      },
      records, summary);
}

}  // namespace commsim
