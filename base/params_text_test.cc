#include "base/params_text.h"

#include <gtest/gtest.h>

#include <array>

namespace commsim {
namespace {

struct TextDemo final : ConfigBase<TextDemo> {
  int64_t rows = 0;
  double bandwidth_bps = 1e9;
  bool flag = true;
  std::string mode = "fast";
  std::vector<double> latencies_s = {1e-06, 0.5};
  void Describe(ParamVisitor& v) override {
    static constexpr std::array<std::string_view, 2> kModes = {"fast", "slow"};
    v.Int("rows", rows, Range::NonNegative(), "grid rows");
    v.Real("bandwidth", bandwidth_bps, Range::Positive(), "link rate", Unit::kBitsPerSecond);
    v.Bool("flag", flag, "a switch");
    v.Text("mode", mode, kModes, "how");
    v.RealList("latencies", latencies_s, Range::NonNegative(), "per link", Unit::kSeconds);
  }
};

// Text values and choices are quoted, so punctuation choices read unambiguously (a delimiter's
// `one of ",", ";"` rather than `one of ,, ;`).
TEST(ParamsTextTest, OneAlignedLinePerField) {
  TextDemo demo;
  EXPECT_EQ(DescribeParams(demo),
            "  rows       integer         default 0             >= 0                   grid rows\n"
            "  bandwidth  real bit/s      default 1e+09         > 0                    link rate\n"
            "  flag       bool            default true                                 a switch\n"
            "  mode       text            default \"fast\"        one of \"fast\", \"slow\"  how\n"
            "  latencies  list of real s  default [1e-06, 0.5]  >= 0                   per link\n");
  EmptyConfig empty;
  EXPECT_EQ(DescribeParams(empty, "    "), "    (no parameters)\n");
}

// Each unit's symbol and examples belong to that unit (a table row out of the enum's order would
// give one unit another's spelling); the examples are the forms the quantity parser accepts.
TEST(ParamsTextTest, EveryUnitHasItsOwnSymbolAndExamples) {
  const struct {
    Unit unit;
    const char* symbol;
    const char* examples;
  } kUnits[] = {
      {Unit::kNone, "", "a number"},
      {Unit::kSeconds, "s", "seconds, e.g. 0.002, \"2ms\", \"50us\""},
      {Unit::kBitsPerSecond, "bit/s", "bit/s, e.g. 1e9, \"1Gbps\", \"200Mbps\""},
      {Unit::kBits, "bit", "bits, e.g. 12000, \"1500B\", \"1MiB\""},
      {Unit::kFlopsPerSecond, "FLOP/s", "FLOP/s, e.g. 1.5e13, \"15.7TFLOPS\""},
  };
  for (const auto& u : kUnits) {
    EXPECT_EQ(UnitSymbol(u.unit), u.symbol);
    EXPECT_EQ(UnitExamples(u.unit), u.examples);
  }
}

}  // namespace
}  // namespace commsim
