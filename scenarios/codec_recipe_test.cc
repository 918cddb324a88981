// Codec costs from operation classes: the compiled coefficients in closed form, the errors a bad
// recipe gets, and the shipped GPU profiles against the figures their notes cite.
#include "scenarios/codec_recipe.h"

#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "base/error_test_util.h"
#include "scenarios/codec_profile_file.h"

namespace commsim {
namespace {

using nlohmann::json;

std::shared_ptr<const CodecProfile> RecipeProfile(const std::string& text) {
  return ParseCodecProfile(json::parse(text), "p.json");
}

std::string RecipeErrorOf(const std::string& text) {
  return test_errors::ErrorOf<UserError>([&text] { RecipeProfile(text); });
}

constexpr const char* kTwoClasses = R"("operations": {
    "a": {"call_s": 1e-3, "item_s": 2e-9},
    "b": {"call_s": 5e-4, "item_s": 7e-9, "note": "x"}})";

TEST(CodecRecipeTest, StepsSumTheirClassesCallAndItemCosts) {
  const auto p = RecipeProfile(std::string(R"({"device": "d", )") + kTwoClasses + R"(,
    "compressors": {"top_k": {"encode": {"ops": ["a", "3 x b per nonzero", "b per element"]},
                              "decode": {"c0_s": 4e-6}}}})");
  const CodecCost& e = p->compressors.at("top_k").encode;
  EXPECT_DOUBLE_EQ(e.c0_s, 1e-3 + 3 * 5e-4 + 5e-4);
  EXPECT_DOUBLE_EQ(e.elem_s, 2e-9 + 7e-9);
  EXPECT_DOUBLE_EQ(e.nnz_s, 3 * 7e-9);
  EXPECT_EQ(e.bit_s, 0.0);
  EXPECT_DOUBLE_EQ(p->compressors.at("top_k").decode.c0_s, 4e-6);  // coefficients still work
  // A message of 1000 elements and 10 coded values.
  Message m;
  m.elements = 1000;
  m.nonzeros = 10;
  EXPECT_DOUBLE_EQ(e.Seconds(m), 3e-3 + 1000 * 9e-9 + 10 * 21e-9);
}

TEST(CodecRecipeTest, BadRecipesAreNamedByPointer) {
  const auto with = [](const std::string& encode) {
    return RecipeErrorOf(std::string(R"({"device": "d", )") + kTwoClasses +
                         R"(, "compressors": {"qsgd": {"encode": )" + encode +
                         R"(, "decode": {}}}})");
  };
  std::string e = with(R"({"ops": ["bb"]})");
  EXPECT_NE(e.find("p.json: /compressors/qsgd/encode/ops/0: unknown operation class \"bb\" (did "
                   "you mean \"b\"?); the profile's \"operations\" define: a, b"),
            std::string::npos)
      << e;
  e = with(R"({"ops": ["0 x a"]})");
  EXPECT_NE(e.find("/encode/ops/0: expected a call count from 1 to 1000 before \"x\", got \"0\""),
            std::string::npos)
      << e;
  e = with(R"({"ops": ["a", "a per bit"]})");
  EXPECT_NE(e.find("/encode/ops/1: expected \"[N x ]<class>[ per element| per nonzero]\", got "
                   "\"a per bit\""),
            std::string::npos)
      << e;
  e = with(R"({"ops": [3]})");
  EXPECT_NE(e.find("/encode/ops/0: expected a step as text, got 3"), std::string::npos) << e;
  e = with(R"({"ops": "a"})");
  EXPECT_NE(e.find("/encode/ops: expected an array of steps"), std::string::npos) << e;
  e = with(R"({"ops": ["a"], "c0_s": 1})");
  EXPECT_NE(e.find("/encode: expected either \"ops\" or the coefficients"), std::string::npos) << e;
  e = RecipeErrorOf(R"({"device": "d", "compressors": {"qsgd": {"encode": {"ops": ["a"]},
                                                                "decode": {}}}})");
  EXPECT_NE(e.find("/compressors/qsgd/encode/ops: a recipe needs the profile's \"operations\""),
            std::string::npos)
      << e;
  e = RecipeErrorOf(R"({"device": "d", "operations": {"a": {"call_s": -1, "colour": 1}},
                        "compressors": {}})");
  EXPECT_NE(e.find("/operations/a/call_s"), std::string::npos) << e;
  EXPECT_NE(e.find("/operations/a/colour: unknown key"), std::string::npos) << e;
}

// The shipped GPU profiles against what their notes cite: 20 us per framework op, and the bytes
// each op moves at 88 % of the device's peak memory bandwidth (790 of 900 GB/s measured on a
// V100). top-k encodes as GRACE's three data ops: |x| (8 B per element), a radix select (20 B per
// element) and a gather of the kept values (40 B each); it decodes as a zero fill (8 B per
// element) and a scatter (40 B per kept value).
TEST(CodecRecipeTest, ShippedGpuTopKIsItsPublishedOperations) {
  for (const auto& [device, peak] :
       {std::pair{"v100", 900e9}, std::pair{"a100", 1555e9}, std::pair{"h100", 3350e9}}) {
    const double bandwidth = peak * 790 / 900;
    const CodecCoefficients& c = ShippedCodecProfile(device)->compressors.at("top_k");
    EXPECT_NEAR(c.encode.c0_s, 3 * 20e-6, 1e-12) << device;
    EXPECT_NEAR(c.encode.elem_s * bandwidth, 8 + 20, 1e-9) << device;
    EXPECT_NEAR(c.encode.nnz_s * bandwidth, 40, 1e-9) << device;
    EXPECT_NEAR(c.decode.c0_s, 2 * 20e-6, 1e-12) << device;
    EXPECT_NEAR(c.decode.elem_s * bandwidth, 8, 1e-9) << device;
    EXPECT_NEAR(c.decode.nnz_s * bandwidth, 40, 1e-9) << device;
  }
}

}  // namespace
}  // namespace commsim
