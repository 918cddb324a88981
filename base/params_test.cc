#include "base/params.h"

#include <gtest/gtest.h>

#include <cmath>

namespace commsim {
namespace {

TEST(RangeTest, OpenAndClosedEnds) {
  const Range r = Range::OpenClosed(0, 1);
  EXPECT_FALSE(r.Contains(0.0));
  EXPECT_TRUE(r.Contains(1e-300));
  EXPECT_TRUE(r.Contains(1.0));
  EXPECT_FALSE(r.Contains(1.5));
  EXPECT_FALSE(r.Contains(std::nan("")));
  EXPECT_EQ(r.ToString(), "in (0, 1]");
  EXPECT_EQ(Range::Positive().ToString(), "> 0");
  EXPECT_EQ(Range::AtLeast(1).ToString(), ">= 1");
}

struct Demo final : ConfigBase<Demo> {
  int64_t n = 3;
  void Describe(ParamVisitor& v) override { v.Int("n", n, Range::AtLeast(1), "count"); }
};

TEST(ComponentSpecTest, CopyIsDeep) {
  auto cfg = std::make_unique<Demo>();
  ComponentSpec a("demo", "demo", std::move(cfg));
  ComponentSpec b = a;
  static_cast<Demo&>(*b.config).n = 9;
  EXPECT_EQ(static_cast<Demo&>(*a.config).n, 3);
  EXPECT_EQ(static_cast<Demo&>(*b.config).n, 9);
}

}  // namespace
}  // namespace commsim
