// Hostile and careless inputs through the binary (`commsim run` / `validate`): each must end in a
// clear error naming the file and the JSON pointer (or file:line), exit 1, and leave no output
// folder; never a signal, an internal check, a bare library message or unbounded work.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

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
       ": /algorithms/0/uplink/block: must be in [0, 1000000000000], got 10000000000000.0", ""});
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

// A logistic-regression scenario on the data file `path` read as `format` (libsvm or csv).
std::string DataScenario(const std::string& format, const std::string& path) {
  return Scenario(R"("model": "logistic_regression")", R"(["sgd"])",
                  R"({"name": ")" + format + R"(", "path": ")" + path + R"("})");
}

TEST(InputLimitsTest, LibsvmDuplicateAndOutOfOrderIndicesAreErrors) {
  const std::string svm = DataScenario("libsvm", "d.svm");
  ExpectRefused(
      {"svm_duplicate", svm, ": /data/path: {dir}/d.svm:2: duplicate feature index 3", ""}, "d.svm",
      "1 1:0.5 3:1\n0 1:1 3:2 3:5\n");
  ExpectRefused({"svm_order", svm,
                 ": /data/path: {dir}/d.svm:1: feature index 2 after 3: indices must be "
                 "increasing on a line",
                 ""},
                "d.svm", "1 3:0.5 2:1\n0 1:1\n");
}

TEST(InputLimitsTest, FeatureValuesOutsideFloat32AreErrors) {
  const std::string svm = DataScenario("libsvm", "d.svm");
  ExpectRefused({"svm_1e39", svm,
                 ": /data/path: {dir}/d.svm:2: feature 2: value '1e39' is outside the range of a "
                 "32-bit float",
                 ""},
                "d.svm", "1 1:0.5\n0 1:1 2:1e39\n");
  const std::string csv = DataScenario("csv", "d.csv");
  ExpectRefused({"csv_1e39", csv,
                 ": /data/path: {dir}/d.csv:2: column 1: value '-1e39' is outside the range of a "
                 "32-bit float",
                 ""},
                "d.csv", "0.5,1\n-1e39,0\n");
}

// 63 rows, the last declaring feature 16,777,216: 63 x 2^24 values, 16 bytes each, is 15.8 GiB,
// over the 8 GiB default budget. Under a 2 GiB address-space limit the budget's message (not "not
// enough memory") shows the check comes before the allocation.
TEST(InputLimitsTest, DeclaredFeatureCountIsCheckedAgainstTheMemoryBudgetBeforeAllocation) {
  std::string rows;
  for (int i = 0; i < 62; ++i) rows += "+1 1:0.25 2:0.5 3:-1.5\n";
  rows += "-1 16777216:1\n";
  const std::string svm = DataScenario("libsvm", "d.svm");
  const fs::path dir = LimitsDir("svm_budget");
  Write(dir / "d.svm", rows);
  Write(dir / "s.json", svm);
  const auto r = RunCommsim("validate " + (dir / "s.json").string(),
                            "cd " + dir.string() + " && prlimit --as=2147483648");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(": /data/path: " + (dir / "d.svm").string() +
                       ": 63 samples x 16777216 features would take 16911433728 bytes (15.8 GiB) "
                       "in memory"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("more than the memory budget of 8589934592 bytes (8.0 GiB); raise "
                       "\"limits\": {\"max_memory\": ...}"),
            std::string::npos)
      << r.out;
}

// limits.max_memory is the budget: 200 CSV rows of 400 features at 16 bytes a value are 6400
// bytes a row, so a 1 MiB budget (1,048,576 bytes) is passed at row 164 (1,049,600 bytes) and a
// 2 MiB one holds them all (1,280,000 bytes).
TEST(InputLimitsTest, MaxMemoryKeySetsTheDataBudget) {
  std::string row;
  for (int c = 0; c < 400; ++c) row += "0.5,";
  std::string rows;
  for (int i = 0; i < 200; ++i) rows += row + std::to_string(i % 2) + "\n";
  const std::string data = R"({"name": "csv", "path": "d.csv"})";
  ExpectRefused({"csv_budget",
                 Scenario(R"("model": "logistic_regression", "limits": {"max_memory": 1048576})",
                          R"(["sgd"])", data),
                 ": /data/path: {dir}/d.csv:164: 164 samples x 400 features would take 1049600 "
                 "bytes (1.0 MiB) in memory",
                 "memory budget of 1048576 bytes"},
                "d.csv", rows);
  const fs::path dir = LimitsDir("csv_budget_ok");
  Write(dir / "d.csv", rows);
  Write(dir / "s.json",
        Scenario(R"("model": "logistic_regression", "limits": {"max_memory": 2097152})",
                 R"(["sgd"])", data));
  const auto v = RunCommsim("validate " + (dir / "s.json").string(), "cd " + dir.string() + " &&");
  EXPECT_EQ(v.status, 0) << v.out;
}

// The problem list is capped and says how many more there are; finding the problems takes time
// linear in their number (timeout only keeps a regression from hanging the suite).
TEST(InputLimitsTest, HundredThousandUnknownKeysAreReportedAsACappedList) {
  const fs::path dir = LimitsDir("many_keys");
  std::string text = R"({"workers": 2, "algorithms": ["sgd"])";
  for (int i = 0; i < 100000; ++i) text += ", \"zz_unknown_" + std::to_string(i) + "\": 1";
  text += "}";
  Write(dir / "s.json", text);
  const auto r = RunCommsim("validate " + (dir / "s.json").string(), "timeout 120");
  EXPECT_EQ(r.status, 1) << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("s.json: /zz_unknown_0: unknown key"), std::string::npos)
      << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("s.json: ... and 99980 more problems"), std::string::npos)
      << r.out.substr(0, 2000);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 21) << r.out.substr(0, 2000);
}

// `compress --input` reads only regular files: /dev/zero was read whole (until the kernel killed
// the process) and a FIFO blocked forever. timeout bounds a regression.
TEST(InputLimitsTest, CompressInputMustBeARegularFile) {
  const fs::path dir = LimitsDir("compress_input");
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string input : {std::string("/dev/zero"), fifo.string()}) {
    const auto r = RunCommsim("compress --compressor top_k --input " + input, "timeout 30");
    EXPECT_EQ(r.status, 1) << input << ": " << r.out;
    EXPECT_NE(r.out.find(input + ": not a regular file (a vector file is expected)"),
              std::string::npos)
        << input << ": " << r.out;
  }
}

// `plot` reads metrics.csv through the input-file checks: a symlink to a device is refused.
TEST(InputLimitsTest, PlotRefusesAMetricsCsvThatIsADevice) {
  const fs::path dir = LimitsDir("plot_device");
  Write(dir / "s.json", Scenario(R"("iterations": 3)"));
  const fs::path out = dir / "out";
  const auto run =
      RunCommsim("run " + (dir / "s.json").string() + " --quiet --no-plots --out " + out.string());
  ASSERT_EQ(run.status, 0) << run.out;
  fs::remove(out / "metrics.csv");
  fs::create_symlink("/dev/zero", out / "metrics.csv");
  const auto r = RunCommsim("plot " + out.string(), "timeout 60");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(
      r.out.find((out / "metrics.csv").string() + ": not a regular file (a CSV file is expected)"),
      std::string::npos)
      << r.out;
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
