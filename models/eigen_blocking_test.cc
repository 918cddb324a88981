#include "models/eigen_blocking.h"

#include <gtest/gtest.h>

#include <Eigen/Core>

namespace commsim {
namespace {

// After FixEigenBlocking, Eigen plans its products with the fixed sizes, not the CPU's.
TEST(EigenBlockingTest, EigenPlansProductsWithTheFixedCacheSizes) {
  FixEigenBlocking();
  std::ptrdiff_t l1 = 0, l2 = 0, l3 = 0;
  Eigen::internal::manage_caching_sizes(Eigen::GetAction, &l1, &l2, &l3);
  EXPECT_EQ(l1, 32 * 1024);
  EXPECT_EQ(l2, 1024 * 1024);
  EXPECT_EQ(l3, 16 * 1024 * 1024);
}

}  // namespace
}  // namespace commsim
