// Test helpers: run the built commsim binary (COMMSIM_BINARY) through the shell and capture its
// combined stdout/stderr and exit code, or expect an exit code and parts of its output; read a JSON
// output; write the small sweeps the sweep tests run. For app/*_test.cc only.
#ifndef COMMSIM_APP_BINARY_TEST_UTIL_H_
#define COMMSIM_APP_BINARY_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/text_test_util.h"

namespace commsim::testing {

struct CommandResult {
  std::string out;
  int status = -1;
};

// `prefix` goes before the binary (e.g. "COMMSIM_DATA_DIR=/tmp/x").
inline CommandResult RunCommsim(const std::string& args, const std::string& prefix = "") {
  CommandResult r;
  const std::string command = prefix + " " + std::string(COMMSIM_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Runs commsim with `args`: it must exit with `exit_code` and print each of `parts`. Returns its
// output.
inline std::string ExpectCommsim(const std::string& args, int exit_code,
                                 const std::vector<std::string>& parts) {
  SCOPED_TRACE("commsim " + args);
  const CommandResult r = RunCommsim(args);
  EXPECT_EQ(r.status, exit_code) << r.out;
  test_text::ExpectHas(r.out, parts);
  return r.out;
}

// The JSON document in file `p` (throws nlohmann::json::parse_error when it is not JSON).
inline nlohmann::json ReadJson(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// What a TinySweep varies; the defaults take a few milliseconds a point.
struct TinySweepOptions {
  int seed = 3;
  int workers = 4;
  int iterations = 20;
  int metrics_every = 10;
  int samples = 200;  // synthetic regression data: samples x features, noise 0.1
  int features = 50;
  int points = 4;  // worker bandwidths, log-spaced from 10 Mbit/s to 10 Gbit/s
};

// A sweep named `name` of a small linear-regression scenario (o.workers workers on a star network,
// 1 ms of fixed compute per iteration, the entries sgd and dore) over the worker bandwidth: one
// axis "bandwidth" of o.points values. Tests change what else they need in the returned document.
inline nlohmann::json TinySweep(const std::string& name, const TinySweepOptions& o = {}) {
  const nlohmann::json base = {
      {"name", "tiny"},
      {"seed", o.seed},
      {"workers", o.workers},
      {"iterations", o.iterations},
      {"metrics_every", o.metrics_every},
      {"model", {{"name", "linear_regression"}}},
      {"data",
       {{"name", "synthetic_regression"},
        {"samples", o.samples},
        {"features", o.features},
        {"noise", 0.1}}},
      {"network", {{"topology", {{"name", "star"}}}}},
      {"compute", {{"mode", "fixed"}, {"seconds", "1ms"}}},
      {"algorithms", nlohmann::json::array({{{"name", "sgd"}}, {{"name", "dore"}}})}};
  const nlohmann::json axis = {{"name", "bandwidth"},
                               {"pointer", "/network/topology/worker_bandwidth"},
                               {"logspace", {"10Mbps", "10Gbps", o.points}}};
  return {{"name", name}, {"base", base}, {"axes", nlohmann::json::array({axis})}};
}

}  // namespace commsim::testing

#endif  // COMMSIM_APP_BINARY_TEST_UTIL_H_
