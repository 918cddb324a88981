#include "scenarios/sweep.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "base/error_test_util.h"

namespace commsim {
namespace {

using nlohmann::json;

Sweep Parse(const std::string& text) { return ParseSweep(json::parse(text), "s.json", ""); }

std::string ErrorOf(const std::string& text) {
  return test_errors::ErrorOf([&] { Parse(text); }, "");
}

TEST(SweepTest, LogspaceOfUnitStringsGivesSiValuesWithExactDecades) {
  const Sweep s = Parse(R"({"base": {"network": {"topology": {"name": "star"}}},
    "axes": [{"pointer": "/network/topology/server_bandwidth", "name": "bandwidth",
              "logspace": ["10Mbps", "10Gbps", 13]}]})");
  ASSERT_EQ(s.size(), 13u);
  const SweepAxis& axis = s.axes[0];
  EXPECT_EQ(axis.unit, Unit::kBitsPerSecond);
  EXPECT_EQ(axis.scale, "log");
  EXPECT_EQ(axis.values[0], json(10000000));
  EXPECT_EQ(axis.values[4], json(100000000));
  EXPECT_EQ(axis.values[12], json(10000000000LL));
  EXPECT_NEAR(axis.values[1].get<double>(), std::pow(10.0, 7.25), 1e-3);
  EXPECT_EQ(axis.cells[0], "10000000");
  for (size_t i = 1; i < 13; ++i) {
    EXPECT_NEAR(axis.values[i].get<double>() / axis.values[i - 1].get<double>(),
                std::pow(10.0, 0.25), 1e-12);
  }
  const json p = s.PointScenario(4);
  EXPECT_EQ(p["network"]["topology"]["server_bandwidth"], json(100000000));
  EXPECT_EQ(p["network"]["topology"]["name"], "star");  // siblings kept
  EXPECT_EQ(s.DescribePoint(4), "bandwidth=100000000");
}

TEST(SweepTest, LinspaceWithAWholeStepGivesExactIntegers) {
  const Sweep s = Parse(R"({"base": {}, "axes": [{"pointer": "/metrics_every",
                                                 "linspace": [1, 250, 250]}]})");
  ASSERT_EQ(s.size(), 250u);
  for (size_t k = 0; k < 250; ++k) {
    EXPECT_EQ(s.axes[0].values[k], json(static_cast<int64_t>(k + 1))) << k;
    EXPECT_EQ(s.axes[0].cells[k], std::to_string(k + 1)) << k;
  }
}

TEST(SweepTest, CartesianEnumeratesLastAxisFastestAndZipPairs) {
  const std::string axes = R"("axes": [{"pointer": "/workers", "values": [4, 8]},
    {"pointer": "/step/size", "linspace": [0.1, 0.3, 3]}])";
  const Sweep c = Parse(R"({"base": {"iterations": 2}, )" + axes + "}");
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c.ValueIndices(0), (std::vector<size_t>{0, 0}));
  EXPECT_EQ(c.ValueIndices(2), (std::vector<size_t>{0, 2}));
  EXPECT_EQ(c.ValueIndices(3), (std::vector<size_t>{1, 0}));
  EXPECT_EQ(c.PointCells(5), (std::vector<std::string>{"8", "0.3"}));
  const json p = c.PointScenario(4);
  EXPECT_EQ(p["workers"], 8);
  EXPECT_DOUBLE_EQ(p["step"]["size"].get<double>(), 0.2);
  EXPECT_EQ(p["iterations"], 2);

  const Sweep z = Parse(R"({"base": {}, "combine": "zip", "axes": [
    {"pointer": "/workers", "values": [4, 8, 16]}, {"pointer": "/batch", "values": [1, 2, 3]}]})");
  ASSERT_EQ(z.size(), 3u);
  EXPECT_EQ(z.PointCells(2), (std::vector<std::string>{"16", "3"}));
}

TEST(SweepTest, ValueListsKeepTheirJsonAndReportQuantitiesInSiUnits) {
  const Sweep s = Parse(R"({"base": {"algorithms": [{"name": "sgd"}, {"name": "dore"}]},
    "set": {"/iterations": 7},
    "axes": [{"pointer": "/network/latency", "values": ["50us", "2ms"]},
             {"pointer": "/algorithms/1/alpha", "values": [0.1]}]})");
  EXPECT_EQ(s.axes[0].unit, Unit::kSeconds);
  EXPECT_EQ(s.axes[0].name, "latency");
  ASSERT_EQ(s.axes[0].cells.size(), 2u);
  EXPECT_DOUBLE_EQ(std::stod(s.axes[0].cells[0]), 50e-6);
  EXPECT_EQ(s.axes[0].cells[1], "0.002");
  const json p = s.PointScenario(1);
  EXPECT_EQ(p["network"]["latency"], "2ms");  // the scenario reader parses the unit
  EXPECT_EQ(p["iterations"], 7);
  EXPECT_EQ(p["algorithms"][1]["alpha"], 0.1);
  EXPECT_EQ(p["algorithms"][1]["name"], "dore");
}

TEST(SweepTest, FingerprintIgnoresFormattingButNotContent) {
  const Sweep a =
      Parse(R"({"base": {"workers": 4}, "axes": [{"pointer": "/seed", "values": [1, 2]}]})");
  const Sweep b = Parse(R"({ "axes": [ {"values": [1, 2], "pointer": "/seed"} ],
                             "base": {"workers": 4}, "name": "other", "description": "x" })");
  const Sweep c =
      Parse(R"({"base": {"workers": 5}, "axes": [{"pointer": "/seed", "values": [1, 2]}]})");
  const Sweep d =
      Parse(R"({"base": {"workers": 4}, "axes": [{"pointer": "/seed", "values": [1, 3]}]})");
  EXPECT_EQ(a.fingerprint.size(), 16u);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_NE(a.fingerprint, c.fingerprint);
  EXPECT_NE(a.fingerprint, d.fingerprint);
}

TEST(SweepTest, ErrorsNamePointerExpectationAndSuggestion) {
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axis": []})"),
            "s.json: /axis: unknown key; did you mean \"axes\"?\n"
            "s.json: /axes: expected a non-empty array of axes");
  EXPECT_EQ(
      ErrorOf(R"({"base": {}, "axes": [{"pointer": "/w", "logspace": ["10Mbps", "1s", 3]}]})"),
      "s.json: /axes/0/logspace: from and to have different units (\"10Mbps\" and \"1s\")");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axes": [{"pointer": "/w", "logspace": [0, 1, 3]}]})"),
            "s.json: /axes/0/logspace: logspace needs positive from and to");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axes": [{"pointer": "/w", "linspace": [0, 1, 0]}]})"),
            "s.json: /axes/0/linspace/2: expected a point count in [1, 100000], got 0");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axes": [{"pointer": "w", "values": [1]}]})"),
            "s.json: /axes/0/pointer: expected a JSON pointer such as \"/workers\", got \"w\"");
  EXPECT_EQ(ErrorOf(R"({"base": {"network": {"topology": "star"}},
                        "axes": [{"pointer": "/network/topology/bw", "values": [1]}]})"),
            "s.json: /axes/0/pointer: /network/topology is \"star\" in the scenario, so \"bw\" "
            "cannot be set inside it");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "combine": "zip", "axes": [{"pointer": "/a", "values": [1]},
                        {"pointer": "/b", "values": [1, 2]}]})"),
            "s.json: /axes: \"combine\": \"zip\" needs axes of equal length, got 1 and 2 values");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axes": [{"pointer": "/x/name", "values": [1]}]})"),
            "s.json: /axes/0: axis name \"name\" is a sweep.csv column; give the axis another "
            "\"name\"");
  EXPECT_EQ(
      ErrorOf(R"({"base": {}, "axes": [{"pointer": "/a", "values": [1], "linspace": [1, 2, 2]}]})"),
      "s.json: /axes/0: expected exactly one of \"values\", \"linspace\", \"logspace\"");
}

TEST(SweepTest, PointCountIsLimitedBeforeAnythingIsEnumerated) {
  // Two axes of 100000 values: 1e10 cartesian points.
  const std::string two_axes = R"({"base": {}, "axes": [
      {"pointer": "/a", "linspace": [0, 1, 100000]}, {"pointer": "/b", "linspace": [0, 1, 100000]}]})";
  EXPECT_EQ(ErrorOf(two_axes),
            "s.json: /axes: the sweep has more than 100000 points (a run each; cartesian axes "
            "multiply); use fewer values per axis, or \"combine\": \"zip\"");
  json zip = json::parse(two_axes);
  zip["combine"] = "zip";
  EXPECT_EQ(ParseSweep(zip, "s.json", "").size(), 100000u);
  // 1000 x 100 = 100000 points: exactly the limit.
  EXPECT_EQ(Parse(R"({"base": {}, "axes": [{"pointer": "/a", "linspace": [0, 1, 1000]},
                     {"pointer": "/b", "linspace": [0, 1, 100]}]})")
                .size(),
            100000u);
}

TEST(SweepTest, BaseFileIsResolvedAgainstTheSweepFolder) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("sweep_test_{}", ::getpid());
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "base.json") << R"({"workers": 3})";
  std::ofstream(dir / "s.json") << R"({"base": "sub/base.json",
    "axes": [{"pointer": "/seed", "values": [1]}]})";
  const Sweep s = LoadSweep((dir / "s.json").string());
  EXPECT_EQ(s.base["workers"], 3);
  EXPECT_EQ(s.base_dir, (dir / "sub").string());
  EXPECT_EQ(s.name, "s");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace commsim

namespace commsim {
namespace {

// The sweep file's keys go through the scenario config machinery: typed, with choices and
// did-you-mean, also inside axes.
TEST(SweepTest, KeysAreTypedWithChoicesAndSuggestionsLikeScenarioKeys) {
  EXPECT_EQ(
      ErrorOf(R"({"base": {}, "combine": "zipp", "axes": [{"pointer": "/a", "values": [1]}]})"),
      "s.json: /combine: expected one of \"cartesian\", \"zip\", got string \"zipp\" (did you "
      "mean \"zip\"?)");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axes": [{"pointer": "/a", "value": [1]}]})"),
            "s.json: /axes/0/value: unknown key; did you mean \"values\"?");
  EXPECT_EQ(
      ErrorOf(R"({"base": {}, "target_loss": "low", "axes": [{"pointer": "/a", "values": [1]}]})"),
      "s.json: /target_loss: expected a number, got string \"low\"");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axes": [{"name": "bw", "values": [1]}]})"),
            "s.json: /axes/0/pointer: missing: a JSON pointer such as "
            "\"/network/topology/server_bandwidth\"");
  EXPECT_EQ(ErrorOf(R"({"base": {}, "axes": [{"pointer": 3, "values": [1]}]})"),
            "s.json: /axes/0/pointer: expected a string, got 3");
}

}  // namespace
}  // namespace commsim
