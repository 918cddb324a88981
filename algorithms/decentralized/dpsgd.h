// dpsgd: D-PSGD (Lian et al. 2017). Each node sends its model x_i to every neighbour each round
// (default identity: 32d bits per copy; any compressor may be set) and mixes
// x_i <- sum_j w_ij x_j - gamma_t grad_i(x_i) (then the model's l1 proximal step, if any).
// The message leaves at the start of the round, overlapping the gradient computation.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_DPSGD_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_DPSGD_H_

#include "algorithms/algorithm.h"
#include "algorithms/decentralized/decentralized_run.h"
#include "sim/params.h"

namespace commsim {

struct DpsgdConfig final : ConfigBase<DpsgdConfig> {
  DpsgdConfig();
  ComponentSpec compressor;  // default: identity (fp32)
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override;
};

class DpsgdAlgorithm final : public Algorithm {
 public:
  explicit DpsgdAlgorithm(const DpsgdConfig& config) : config_(config) {}
  std::string_view Name() const { return "dpsgd"; }
  std::string_view family() const override { return kDecentralizedFamily; }
  void Check(const RunSetup& setup) const override {
    CheckDecentralized(setup, "dpsgd", config_.common);
  }
  void Run(const RunSetup& setup, std::vector<IterationRecord>* records,
           RunSummary* summary) const override;

 private:
  DpsgdConfig config_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_DPSGD_H_
