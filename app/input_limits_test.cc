// Hostile and careless inputs through the binary (`commsim run` / `validate`): each must end in a
// clear error naming the file and the JSON pointer (or file:line), exit 1, and leave no output
// folder; never a signal, an internal check, a bare library message or unbounded work.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/binary_test_util.h"
#include "sim/file_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::testing::RunCommsim;

fs::path LimitsDir(const std::string& name) {
  return commsim::test_files::FreshDir("commsim_limits_" + name);
}

void Write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// A small, fast scenario; `extra` is spliced into the top-level object.
std::string Scenario(
    const std::string& extra, const std::string& algorithms = R"(["sgd"])",
    const std::string& data = R"({"name": "synthetic_regression", "samples": 40, "features": 4})") {
  return R"({"workers": 2, "data": )" + data + R"(, "algorithms": )" + algorithms +
         (extra.empty() ? "" : ", " + extra) + "}";
}

struct Case {
  const char* name;
  std::string scenario;
  std::string message;  // expected right after the scenario file's name; "{dir}" = the scenario's
                        // folder (data paths are resolved against it and reported absolute)
  std::string also;     // expected anywhere in the output too
};

// Runs `run` and `validate` (from the scenario's folder): both exit 1 with the message, and no
// output folder is left.
void ExpectRefused(const Case& c, const std::string& data_file = "",
                   const std::string& data_text = "") {
  const fs::path dir = LimitsDir(c.name);
  if (!data_file.empty()) Write(dir / data_file, data_text);
  const fs::path file = dir / "scenario.json";
  Write(file, c.scenario);
  const std::string cd = "cd " + dir.string() + " &&";
  const fs::path out = dir / "out";
  const auto r =
      RunCommsim("run " + file.string() + " --quiet --no-plots --out " + out.string(), cd);
  const auto v = RunCommsim("validate " + file.string(), cd);
  std::string message = c.message;
  if (const size_t at = message.find("{dir}"); at != std::string::npos) {
    message.replace(at, 5, dir.string());
  }
  for (const auto* result : {&r, &v}) {
    EXPECT_EQ(result->status, 1) << c.name << ": " << result->out;
    EXPECT_NE(result->out.find(file.string() + message), std::string::npos)
        << c.name << ": " << result->out;
    EXPECT_NE(result->out.find(c.also), std::string::npos) << c.name << ": " << result->out;
    EXPECT_EQ(result->out.find("COMMSIM_CHECK"), std::string::npos) << c.name;
  }
  EXPECT_FALSE(fs::exists(out)) << c.name;
}

TEST(InputLimitsTest, JsonNested100000DeepIsAnErrorNotAStackOverflow) {
  ExpectRefused({"deep", std::string(100000, '[') + std::string(100000, ']'), ": /0/0/0/0/0/0",
                 "/0/...: nested deeper than 256 levels of arrays and objects"});
}

TEST(InputLimitsTest, JsonNumberOverflowDuplicateKeysAndArrayItemPointers) {
  ExpectRefused({"overflow", R"({"seed": 1e400, "algorithms": ["sgd"]})",
                 ":1:10: invalid JSON: number 1e400 is out of range", ""});
  ExpectRefused({"duplicate", Scenario(R"("network": {"mtu": 0, "mtu": 12000})"),
                 ": /network/mtu: duplicate key", ""});
  // An array item is "/edges/1" (RFC 6901), not the escaped key "/edges~11".
  ExpectRefused({"edge_item",
                 Scenario(R"("network": {"topology": {"name": "explicit", "edges": [0, "x"]}})"),
                 ": /network/topology/edges/1: expected a number", ""});
  ExpectRefused({"unit_overflow", Scenario(R"("network": {"topology": {"name": "star",
                                                      "server_bandwidth": "1e300Tbps"}})"),
                 ": /network/topology/server_bandwidth: out of range", ""});
}

TEST(InputLimitsTest, SizesAreBoundedBeforeAnythingIsAllocated) {
  ExpectRefused(
      {"block",
       Scenario("", R"([{"name": "sgd", "uplink": {"name": "scaled_sign", "block": 1e13}}])"),
       ": /algorithms/0/uplink/block: must be in [1, 1000000000000], got 10000000000000.0", ""});
  ExpectRefused({"switches",
                 Scenario(R"("network": {"topology": {"name": "explicit", "edges": [0, 1],
                                                      "switches": 1e9}})"),
                 ": /network/topology/switches: must be in [0, 100000], got 1000000000", ""});
  ExpectRefused(
      {"latency", Scenario(R"("network": {"topology": {"name": "star", "worker_latency": 1e7}})"),
       ": /network/topology/worker_latency: must be in [0, 9200000], got 10000000.0", ""});
  ExpectRefused({"compute_seconds", Scenario(R"("compute": {"seconds": 1e7})"),
                 ": /compute/seconds: must be in [0, 9200000], got 10000000.0", ""});
  ExpectRefused(
      {"samples",
       Scenario("", R"(["sgd"])",
                R"({"name": "synthetic_regression", "samples": 1000000000, "features": 1000000})"),
       ": /data: 1000000000 samples x 1000000 features is more than the 1073741824 values", ""});
}

TEST(InputLimitsTest, DataFileProblemsArePointedAtTheDataPath) {
  const auto with_data = [](const std::string& data) {
    return Scenario(R"("model": "logistic_regression")", R"(["sgd"])", data);
  };
  const std::string svm = R"({"name": "libsvm", "path": "d.svm"})";
  ExpectRefused(
      {"index_2_62", with_data(svm),
       ": /data/path: {dir}/d.svm:2: expected a feature index, an integer in [1, 16777216], "
       "got '4611686018427387904'",
       ""},
      "d.svm", "1 1:0.5\n0 4611686018427387904:1\n");
  ExpectRefused(
      {"index_1e300", with_data(svm),
       ": /data/path: {dir}/d.svm:1: expected a feature index, an integer in [1, 16777216], "
       "got '1e300'",
       ""},
      "d.svm", "1 1e300:0.5\n0 1:1\n");
  const std::string csv = R"({"name": "csv", "path": "d.csv"})";
  ExpectRefused({"label_int_max", with_data(csv),
                 ": /data/path: {dir}/d.csv:2: label 2147483647 is too large a class", ""},
                "d.csv", "0.5,1\n0.25,2147483647\n");
  ExpectRefused({"label_1e300", with_data(csv),
                 ": /data/path: {dir}/d.csv:1: label 1e+300 is too large a class", ""},
                "d.csv", "0.5,1e300\n0.25,0\n");
  ExpectRefused({"dev_zero", with_data(R"({"name": "csv", "path": "/dev/zero"})"),
                 ": /data/path: /dev/zero: not a regular file", ""});
}

TEST(InputLimitsTest, SetWithAHugeArrayIndexIsAnError) {
  const fs::path dir = LimitsDir("set_index");
  Write(dir / "s.json", Scenario(""));
  const auto r = RunCommsim("validate " + (dir / "s.json").string() +
                            " --set /algorithms/99999999999999999999999=1");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("\"99999999999999999999999\" is not an index in it"), std::string::npos)
      << r.out;
}

// Limits that only show while a run goes: the run stops with a message saying what to change
// (how the failed entry is recorded is the runner's business; here: no signal, no abort).
TEST(InputLimitsTest, RunLimitsStopTheRunWithWhatToChange) {
  const struct {
    const char* name;
    std::string scenario;
    const char* message;
  } cases[] = {
      // 100000 parameters x 32 bits: 3.2e6 packets of 1 bit.
      {"mtu_one_bit", Scenario(R"("iterations": 3, "network": {"mtu": 1},
                   "model": {"name": "synthetic_quadratic", "dim": 100000})"),
       "packets, more than the limit of 1000000 packets per message; raise /network/mtu"},
      {"max_packets", Scenario(R"("iterations": 3, "network": {"mtu": 1},
                                  "limits": {"max_packets_per_message": 100})"),
       "packets, more than the limit of 100 packets per message; raise /network/mtu"},
      {"max_events", Scenario(R"("iterations": 3, "limits": {"max_events": 10})"),
       "the run reached 10 simulated events (limits.max_events)"},
      {"tiny_bandwidth", Scenario(R"("iterations": 100, "network": {"topology": {"name": "star",
                    "worker_bandwidth": 0.001, "server_bandwidth": 0.001}})"),
       "the simulated-time limit of 9.2e6 s (106 days"},
      {"huge_latency", Scenario(R"("iterations": 100, "network": {"topology": {"name": "star",
                    "worker_latency": 2e5, "server_latency": 2e5}})"),
       "the simulated-time limit of 9.2e6 s (106 days"},
      {"slow_device", Scenario(R"("iterations": 3, "compute": {"mode": "flops", "device": "custom",
                                                "flops_per_s": 1e-12})"),
       "compute: worker 0's step on 20 samples: a duration of"},
  };
  for (const auto& c : cases) {
    const fs::path dir = LimitsDir(c.name);
    Write(dir / "s.json", c.scenario);
    const auto r = RunCommsim("run " + (dir / "s.json").string() + " --quiet --no-plots --out " +
                              (dir / "out").string());
    EXPECT_NE(r.status, 0) << c.name << ": " << r.out;
    EXPECT_NE(r.status, -1) << c.name << ": killed by a signal: " << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.name << ": " << r.out;
    EXPECT_EQ(r.out.find("COMMSIM_CHECK"), std::string::npos) << c.name << ": " << r.out;
  }
}

}  // namespace
