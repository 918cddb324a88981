// TestObjective: the base of the small objectives the algorithm tests write by hand (header-only,
// test use only). It holds the name and the sizes and starts from x0 = 0; a test objective adds
// Gradient and Loss (and optimum(), l1() when it has them).
#ifndef COMMSIM_ALGORITHMS_TEST_OBJECTIVE_H_
#define COMMSIM_ALGORITHMS_TEST_OBJECTIVE_H_

#include <cstdint>
#include <string_view>

#include "models/objective.h"

namespace commsim::test_objective {

class TestObjective : public Objective {
 public:
  // `shard`: samples per worker (shard_size of every worker); `flops`: flops_per_sample().
  TestObjective(std::string_view name, int64_t dim, int workers, int64_t shard = 1,
                double flops = 1.0)
      : name_(name), dim_(dim), workers_(workers), shard_(shard), flops_(flops) {}
  std::string_view Name() const override { return name_; }
  int64_t dim() const override { return dim_; }
  int num_workers() const override { return workers_; }
  int64_t shard_size(int) const override { return shard_; }
  double flops_per_sample() const override { return flops_; }
  void InitialPoint(Rng&, Eigen::Ref<Eigen::VectorXd> x0) const override { x0.setZero(); }

 private:
  std::string_view name_;
  int64_t dim_;
  int workers_;
  int64_t shard_;
  double flops_;
};

}  // namespace commsim::test_objective

#endif  // COMMSIM_ALGORITHMS_TEST_OBJECTIVE_H_
