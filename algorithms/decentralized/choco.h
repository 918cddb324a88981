// choco: CHOCO-SGD (Koloskova, Stich, Jaggi 2019) and malcom: MALCOM-PSGD (Campbell et al. 2023),
// one implementation (ChocoRule, choco_rule.h). MALCOM is CHOCO-SGD with the `dithered` quantizer
// and its vector source code, a proximal l1 step and (by the entry's `step`) gamma_0/sqrt(t+1);
// registered as the same algorithm with other defaults, so with mu = 0 and the same compressor and
// seed the two produce the same trajectory bit for bit.
//
// Per round each node sends one message, Q(x_half - x-hat_i), to every neighbour; its payload is
// the compressor's encoded length (e.g. qsgd fixed: 32 + b (1 + ceil(log2(s+1))) per bucket;
// dithered: 32 + vector source code of the integer levels).
// The proximal step uses lambda = the model's l1 + mu.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_CHOCO_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_CHOCO_H_

#include <string>

#include "algorithms/algorithm.h"
#include "algorithms/decentralized/decentralized_run.h"
#include "sim/params.h"

namespace commsim {

struct ChocoConfig final : ConfigBase<ChocoConfig> {
  ChocoConfig();
  ComponentSpec compressor;  // default: qsgd, 15 levels (4 bits), fixed coding
  double gamma_c = 0.3;
  std::string rescale = "auto";
  DecentralizedOptions common;
  // The registry name this config runs as ("choco" or "malcom"); set by the registry's defaults,
  // not a parameter.
  std::string algorithm = "choco";
  void Describe(ParamVisitor& v) override;
};

// The malcom registry entry's defaults: dithered (15 levels, vector source code).
void SetMalcomDefaults(ChocoConfig& config);

class ChocoAlgorithm final : public Algorithm {
 public:
  explicit ChocoAlgorithm(const ChocoConfig& config) : config_(config) {}
  std::string_view Name() const { return config_.algorithm; }
  std::string_view family() const override { return kDecentralizedFamily; }
  void Check(const RunSetup& setup) const override {
    CheckDecentralized(setup, config_.algorithm, config_.common);
  }
  void Run(const RunSetup& setup, std::vector<IterationRecord>* records,
           RunSummary* summary) const override;

 private:
  ChocoConfig config_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_CHOCO_H_
