// TwoWayRule: the state shared by the rules that compress both directions with memories of their
// own (DORE, DoubleSqueeze): the two link compressors, the objective that supplies the proximal
// step (kept by InitModel) and the server's model x, which Model() returns.
#ifndef COMMSIM_ALGORITHMS_PS_TWO_WAY_RULE_H_
#define COMMSIM_ALGORITHMS_PS_TWO_WAY_RULE_H_

#include <memory>
#include <utility>

#include "algorithms/ps/ps_rule.h"

namespace commsim {

class TwoWayRule : public PsRule {
 public:
  const Eigen::VectorXd& Model() const final { return x_; }

 protected:
  // Builds both compressors through MakeLink (ps_rule.h), so the driver can make them compress
  // bucket by bucket.
  TwoWayRule(const ComponentSpec& uplink, const ComponentSpec& downlink)
      : uplink_(MakeLink(uplink)), downlink_(MakeLink(downlink)) {}
  // The common part of Init: keeps `objective` and sets x = x0.
  void InitModel(const ConstVec& x0, const Objective& objective) {
    objective_ = &objective;
    x_ = x0;
  }

  std::unique_ptr<Compressor> uplink_;
  std::unique_ptr<Compressor> downlink_;
  const Objective* objective_ = nullptr;
  Eigen::VectorXd x_;  // the server's model
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_TWO_WAY_RULE_H_
