#include "scenarios/json_config.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "base/error.h"
#include "base/error_test_util.h"

namespace commsim {
namespace {

using nlohmann::json;

struct Inner final : ConfigBase<Inner> {
  int64_t block = 256;
  std::string p = "inf";
  void Describe(ParamVisitor& v) override {
    static constexpr std::array<std::string_view, 2> kP = {"2", "inf"};
    v.Int("block", block, Range::AtLeast(1), "block size");
    v.Text("p", p, kP, "norm");
  }
};

struct Other final : ConfigBase<Other> {
  double scale = 1.0;
  void Describe(ParamVisitor& v) override { v.Real("scale", scale, Range::Positive(), "s"); }
};

struct Outer final : ConfigBase<Outer> {
  double alpha = 0.1;
  double bandwidth_bps = 1e9;
  double latency_s = 0;
  int64_t mtu_bits = 0;
  bool flag = false;
  std::vector<double> slowdown;
  ComponentSpec uplink{"thing", "inner", std::make_unique<Inner>()};
  void Describe(ParamVisitor& v) override {
    v.Real("alpha", alpha, Range::OpenClosed(0, 1), "step");
    v.Real("bandwidth", bandwidth_bps, Range::Positive(), "bw", Unit::kBitsPerSecond);
    v.Real("latency", latency_s, Range::NonNegative(), "lat", Unit::kSeconds);
    v.Int("mtu", mtu_bits, Range::NonNegative(), "mtu", Unit::kBits);
    v.Bool("flag", flag, "f");
    v.RealList("slowdown", slowdown, Range::Positive(), "per worker");
    v.Component("uplink", uplink, "compressor");
  }
  void Validate(ParamProblems& problems) const override {
    if (flag && alpha > 0.5) problems.Add("alpha", "must be <= 0.5 when flag is set");
  }
};

ComponentKinds TestKinds() {
  ComponentKinds kinds;
  kinds.Add({"thing",
             [] {
               return std::vector<std::string>{"inner", "other"};
             },
             [](std::string_view name) -> std::unique_ptr<Config> {
               if (name == "inner") return std::make_unique<Inner>();
               if (name == "other") return std::make_unique<Other>();
               return nullptr;
             }});
  return kinds;
}

// 25 distinct problems, one exact repeat (dropped) and one new message at a known pointer (kept):
// 26 kept, the first 20 shown, then a count of the other 6.
TEST(JsonConfigTest, ProblemListIsCappedAndRepeatsAreDroppedOnce) {
  ErrorList errors;
  for (int i = 0; i < 25; ++i) errors.Add("/k" + std::to_string(i), "unknown key");
  errors.Add("/k3", "unknown key");
  errors.Add("/k3", "another problem");  // same pointer, another message: kept
  EXPECT_EQ(errors.size(), 26u);
  std::string expected;
  for (int i = 0; i < 20; ++i) expected += "f.json: /k" + std::to_string(i) + ": unknown key\n";
  expected += "f.json: ... and 6 more problems";
  EXPECT_EQ(errors.Format("f.json"), expected);
}

TEST(JsonConfigTest, ReadsValuesWithUnits) {
  Outer c;
  ErrorList errors;
  ReadConfig(json::parse(R"({"alpha": 0.5, "bandwidth": "200Mbps", "latency": "50us",
                             "mtu": "1500B", "flag": true, "slowdown": [1, 2.5],
                             "uplink": {"block": 128}})"),
             "/x", c, errors, {}, TestKinds());
  ASSERT_TRUE(errors.empty()) << errors.Format("f.json");
  EXPECT_EQ(c.alpha, 0.5);
  EXPECT_DOUBLE_EQ(c.bandwidth_bps, 2e8);
  EXPECT_DOUBLE_EQ(c.latency_s, 50e-6);
  EXPECT_EQ(c.mtu_bits, 12000);
  EXPECT_TRUE(c.flag);
  EXPECT_EQ(c.slowdown, (std::vector<double>{1, 2.5}));
  EXPECT_EQ(c.uplink.name, "inner");
  EXPECT_EQ(static_cast<Inner&>(*c.uplink.config).block, 128);
}

TEST(JsonConfigTest, ReportsEveryProblemWithPointerExpectedAndFound) {
  Outer c;
  ErrorList errors;
  ReadConfig(json::parse(R"({"alpha": 1.5, "bandwith": 3, "latency": -1, "flag": 1,
                             "uplink": {"name": "inner", "p": 3}})"),
             "/algorithms/2", c, errors, {}, TestKinds());
  const std::string text = errors.Format("s.json");
  EXPECT_NE(text.find("s.json: /algorithms/2/alpha: must be in (0, 1], got 1.5"), std::string::npos)
      << text;
  EXPECT_NE(text.find("/algorithms/2/bandwith: unknown key; did you mean \"bandwidth\"?"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("/algorithms/2/latency: must be >= 0, got -1"), std::string::npos) << text;
  EXPECT_NE(text.find("/algorithms/2/flag: expected true or false, got 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("/algorithms/2/uplink/p: expected one of \"2\", \"inf\", got 3"),
            std::string::npos)
      << text;
  EXPECT_EQ(errors.size(), 5u);
  EXPECT_THROW(errors.ThrowIfAny("s.json"), UserError);
}

TEST(JsonConfigTest, UnknownComponentNameSuggestsClosest) {
  ComponentSpec spec("thing", "", nullptr);
  ErrorList errors;
  ReadComponent(json::parse(R"({"name": "inenr"})"), "/u", spec, errors, TestKinds());
  EXPECT_EQ(errors.Format("f"),
            "f: /u/name: unknown thing \"inenr\"; did you mean \"inner\"? (known: inner, other)");
}

TEST(JsonConfigTest, ComponentByBareNameAndSwitchingKinds) {
  Outer c;
  ErrorList errors;
  ReadConfig(json::parse(R"({"uplink": {"name": "other", "scale": 2}})"), "", c, errors, {},
             TestKinds());
  ASSERT_TRUE(errors.empty()) << errors.Format("f");
  EXPECT_EQ(c.uplink.name, "other");
  EXPECT_EQ(static_cast<Other&>(*c.uplink.config).scale, 2.0);
  Outer d;
  ReadConfig(json::parse(R"({"uplink": "other"})"), "", d, errors, {}, TestKinds());
  ASSERT_TRUE(errors.empty());
  EXPECT_EQ(d.uplink.name, "other");
}

TEST(JsonConfigTest, CrossFieldValidation) {
  Outer c;
  ErrorList errors;
  ReadConfig(json::parse(R"({"flag": true, "alpha": 0.9})"), "", c, errors, {}, TestKinds());
  EXPECT_EQ(errors.Format("f"), "f: /alpha: must be <= 0.5 when flag is set");
}

TEST(JsonConfigTest, WriteRoundTripsThroughRead) {
  Outer c;
  c.alpha = 0.25;
  c.slowdown = {1, 3};
  static_cast<Inner&>(*c.uplink.config).p = "2";
  const json written = WriteConfig(c);
  Outer d;
  ErrorList errors;
  ReadConfig(written, "", d, errors, {}, TestKinds());
  ASSERT_TRUE(errors.empty()) << errors.Format("f");
  EXPECT_EQ(WriteConfig(d), written);
  EXPECT_EQ(written["uplink"]["name"], "inner");
}

TEST(QuantityTest, UnitsAndErrors) {
  std::string error;
  EXPECT_DOUBLE_EQ(*ParseQuantity(json("10Gbps"), Unit::kBitsPerSecond, &error), 1e10);
  EXPECT_DOUBLE_EQ(*ParseQuantity(json("2 ms"), Unit::kSeconds, &error), 2e-3);
  EXPECT_DOUBLE_EQ(*ParseQuantity(json(1e9), Unit::kBitsPerSecond, &error), 1e9);
  EXPECT_DOUBLE_EQ(*ParseQuantity(json("15.7TFLOPS"), Unit::kFlopsPerSecond, &error), 15.7e12);
  EXPECT_FALSE(ParseQuantity(json("10 parsecs"), Unit::kSeconds, &error).has_value());
  EXPECT_NE(error.find("seconds"), std::string::npos);
  EXPECT_FALSE(ParseQuantity(json("5"), Unit::kNone, &error).has_value());
}

TEST(QuantityTest, EveryCommonSpellingOfABandwidth) {
  std::string error;
  // bits per second: bps, bit/s and b/s with k, K, M, G, T; bytes per second: B/s (8 bits).
  const std::vector<std::pair<const char*, double>> cases = {
      {"1Gbps", 1e9},   {"1Gbit/s", 1e9}, {"1Gb/s", 1e9},   {"1 Gb/s", 1e9}, {"3Mb/s", 3e6},
      {"2kb/s", 2e3},   {"2Kb/s", 2e3},   {"2Kbit/s", 2e3}, {"4Tb/s", 4e12}, {"7b/s", 7},
      {"125MB/s", 1e9}, {"1GB/s", 8e9},   {"1KB/s", 8e3},   {"1TB/s", 8e12}};
  for (const auto& [text, bits_per_s] : cases) {
    const std::optional<double> parsed = ParseQuantity(json(text), Unit::kBitsPerSecond, &error);
    ASSERT_TRUE(parsed.has_value()) << text << ": " << error;
    EXPECT_DOUBLE_EQ(*parsed, bits_per_s) << text;
  }
  for (const char* text : {"1Gib/s", "1gB/s", "1G/s", "1Gbs"}) {
    EXPECT_FALSE(ParseQuantity(json(text), Unit::kBitsPerSecond, &error).has_value()) << text;
  }
}

std::string ErrorOfLoad(const std::string& path) {
  return test_errors::ErrorOf([&] { LoadJsonFile(path); }, "loaded");
}

TEST(QuantityTest, NonFiniteHexAndOverflowingValuesAreErrorsAndMinusZeroIsZero) {
  std::string error;
  for (const char* text :
       {"1e309Gbps", "nan", "inf", "-infbps", "0x10Gbps", " 5Gbps", "", "Gbps", "1e300Tbps"}) {
    EXPECT_FALSE(ParseQuantity(json(text), Unit::kBitsPerSecond, &error).has_value()) << text;
  }
  ParseQuantity(json("1e300Tbps"), Unit::kBitsPerSecond, &error);
  EXPECT_EQ(error, "out of range: the value does not fit a double (|x| < 1.8e308)");
  const double minus_zero = *ParseQuantity(json("-0ms"), Unit::kSeconds, &error);
  EXPECT_EQ(minus_zero, 0.0);
  EXPECT_FALSE(std::signbit(minus_zero));
  EXPECT_FALSE(std::signbit(*ParseQuantity(json(-0.0), Unit::kSeconds, &error)));
}

TEST(LoadJsonFileTest, SyntaxErrorNamesFileLineAndColumn) {
  const std::string path = ::testing::TempDir() + "/bad.json";
  std::ofstream(path) << "{\n  \"a\": 1,\n  \"b\": ]\n}\n";
  try {
    LoadJsonFile(path);
    FAIL() << "expected UserError";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":3:"), std::string::npos) << e.what();
  }
  EXPECT_THROW(LoadJsonFile(path + ".missing"), UserError);
}

std::string ParseError(const std::string& text) {
  return test_errors::ErrorOf([&] { ParseJsonText(text, "t.json"); }, "parsed");
}

TEST(JsonTextTest, NestingIsLimitedTo256LevelsWithThePointerWhereItWentDeeper) {
  EXPECT_EQ(ParseError(std::string(256, '[') + std::string(256, ']')), "parsed");
  const std::string deep =
      ParseError(R"({"a": [)" + std::string(256, '[') + "1" + std::string(257, ']') + "}");
  // The pointer (/a then 254 times /0) is cut to 77 characters.
  EXPECT_EQ(
      deep, "t.json: /a" + [] {
        std::string zeros;
        for (int i = 0; i < 37; ++i) zeros += "/0";
        return zeros;
      }() + "/...: nested deeper than 256 levels of arrays and objects");
}

TEST(JsonTextTest, DuplicateKeysOverflowingNumbersAndBadUtf8AreErrors) {
  EXPECT_EQ(ParseError(R"({"a": 1, "b": [{"c": 1, "c~/": 2, "c~/": 3}]})"),
            "t.json: /b/0/c~0~1: duplicate key (each key may appear once in an object)");
  EXPECT_EQ(ParseError("{\n  \"x\": -1e400}"),
            "t.json:2:8: invalid JSON: number -1e400 is out of range (JSON numbers must be "
            "within +-1.8e308)");
  EXPECT_NE(ParseError("{\"a\": \"\xff\xfe\"}").find("t.json:1:"), std::string::npos);
  // A UTF-8 byte order mark is skipped; comments are allowed.
  EXPECT_EQ(ParseJsonText("\xEF\xBB\xBF{\"a\": 1 // note\n}", "t.json"), json({{"a", 1}}));
  // Plain syntax errors are nullopt for TryParseJsonText (a --set value taken as text) ...
  EXPECT_FALSE(TryParseJsonText("200Mbps", "--set").has_value());
  // ... but limits still throw.
  EXPECT_THROW(TryParseJsonText(R"({"a": 1, "a": 2})", "--set"), UserError);
}

TEST(JsonTextTest, LoadJsonFileRefusesDevicesAndFolders) {
  EXPECT_EQ(ErrorOfLoad("/dev/zero"), "/dev/zero: not a regular file (a JSON file is expected)");
  EXPECT_EQ(ErrorOfLoad(::testing::TempDir()),
            ::testing::TempDir() + ": not a regular file (a JSON file is expected)");
}

TEST(JsonConfigTest, ListItemsArePointedAtWithTheirIndex) {
  Outer c;
  ErrorList errors;
  ReadConfig(json::parse(R"({"slowdown": [1, "x", -2]})"), "/compute", c, errors, {}, TestKinds());
  EXPECT_EQ(errors.Format("f"),
            "f: /compute/slowdown/1: expected a number, got string \"x\"\n"
            "f: /compute/slowdown/2: must be > 0, got -2");
}

TEST(SetAtPointerTest, CreatesObjectsButNeverGrowsArrays) {
  json doc = json::parse(R"({"a": [1, 2], "n": 3})");
  EXPECT_EQ(SetAtPointer(doc, "/b/c", 5), "");
  EXPECT_EQ(doc["b"]["c"], 5);
  EXPECT_EQ(SetAtPointer(doc, "/a/1", 7), "");
  EXPECT_EQ(doc["a"], json({1, 7}));
  EXPECT_EQ(SetAtPointer(doc, "/a/2", 7),
            "/a is an array of 2 in the scenario; \"2\" is not an index in it");
  EXPECT_EQ(SetAtPointer(doc, "/a/99999999999999999999999", 7),
            "/a is an array of 2 in the scenario; \"99999999999999999999999\" is not an index "
            "in it");
  EXPECT_EQ(SetAtPointer(doc, "/a/01", 7),
            "/a is an array of 2 in the scenario; \"01\" is not an index in it");
  EXPECT_EQ(SetAtPointer(doc, "/n/x", 7),
            "/n is 3 in the scenario, so \"x\" cannot be set inside it");
}

TEST(DidYouMeanTest, ClosestOrNothing) {
  EXPECT_EQ(DidYouMean("dor", {"dore", "diana", "sgd"}), "dore");
  EXPECT_EQ(DidYouMean("zzzzzzzz", {"dore", "diana"}), "");
  EXPECT_EQ(JoinPointer("/a", "b/c~"), "/a/b~1c~0");
}

}  // namespace
}  // namespace commsim
