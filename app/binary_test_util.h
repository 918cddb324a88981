// Test helpers: run the built commsim binary (COMMSIM_BINARY) through the shell and capture its
// combined stdout/stderr and exit code; read a JSON output. For app/*_test.cc only.
#ifndef COMMSIM_APP_BINARY_TEST_UTIL_H_
#define COMMSIM_APP_BINARY_TEST_UTIL_H_

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

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

// The JSON document in file `p` (throws nlohmann::json::parse_error when it is not JSON).
inline nlohmann::json ReadJson(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace commsim::testing

#endif  // COMMSIM_APP_BINARY_TEST_UTIL_H_
