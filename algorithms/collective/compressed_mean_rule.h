// The state every rule keeps that steps with the mean of the n workers' decoded compressed
// gradients (allgather_compressed, allreduce_compressed):
//   plain:           x <- prox_gamma(x - gamma mean_i D(c_i))
//   error_feedback:  p_i = e_i + gamma g_i, c_i = C(p_i), e_i <- p_i - D(c_i);
//                    x <- prox_gamma(x - mean_i D(c_i))   (e_i = 0 at start)
// and the round counter and seed of the stream the workers share (SharedRng). Extra column
// `memory_sq` = mean_i ||e_i||^2 with error feedback.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_COMPRESSED_MEAN_RULE_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_COMPRESSED_MEAN_RULE_H_

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "algorithms/collective/collective_rule.h"
#include "base/rng.h"

namespace commsim {

class CompressedMeanRule : public SharedModelRule {
 public:
  explicit CompressedMeanRule(bool error_feedback) : error_feedback_(error_feedback) {}
  // The step with mean_, then the next round.
  void EndRound(double step) override;
  void Extra(std::map<std::string, double>& out) const override;

 protected:
  // Sizes mean_ and (error feedback) the memories, keeps the seed; call first in InitRule.
  void InitMean(uint64_t seed);
  // This round's stream shared by every worker (collective_rule.h: SharedRoundRng).
  Rng SharedRng() const { return SharedRoundRng(seed_, round_); }

  bool error_feedback_;
  std::vector<Eigen::VectorXd> memory_;  // e_i (error feedback only)
  Eigen::VectorXd mean_;                 // mean_i D(c_i), set by the rule each round

 private:
  uint64_t seed_ = 0;
  int64_t round_ = 1;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_COMPRESSED_MEAN_RULE_H_
