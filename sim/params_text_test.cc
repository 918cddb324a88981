#include "sim/params_text.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

struct Demo final : ConfigBase<Demo> {
  int64_t block = 256;
  std::string p = "inf";
  bool scale = true;
  void Describe(ParamVisitor& v) override {
    static constexpr std::string_view kChoices[] = {"2", "inf"};
    v.Int("block", block, Range::AtLeast(1), "block size");
    v.Text("p", p, kChoices, "norm");
    v.Bool("scale", scale, "scale it");
  }
};

TEST(ParamsTextTest, OneAlignedLinePerParameter) {
  Demo demo;
  EXPECT_EQ(DescribeParams(demo, "> "),
            "> block  int = 256     >= 1          block size\n"
            "> p      text = \"inf\"  one of 2|inf  norm\n"
            "> scale  bool = true                 scale it\n");
  EmptyConfig empty;
  EXPECT_EQ(DescribeParams(empty), "");
}

}  // namespace
}  // namespace commsim
