// Runs the commsim binary on the example net specs: a closed form end to end, determinism of the
// whole report, and the error path for a bad spec.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "app/binary_test_util.h"

namespace {

using commsim::testing::ExpectCommsim;
using commsim::testing::RunCommsim;

TEST(NetCommandTest, IncastExampleEndsAtTheClosedForm) {
  // 4 workers x 1 MB into a 1 Gbps server link, 1500 B packets, 10 us per hop:
  // 4 * 8e6 / 1e9 + 12000 / 1e9 + 2 * 10e-6 = 0.032032 s.
  const auto r = RunCommsim("net scenarios/net/incast.json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("# end 0.032032 s, 4 messages, 32000000 bits sent"), std::string::npos)
      << r.out;
  EXPECT_EQ(RunCommsim("net scenarios/net/incast.json").out, r.out);  // same spec, same report
}

TEST(NetCommandTest, RingAllReduceExampleEndsAtTheClosedForm) {
  // n = 8, M = 8e8 bits, B = 1e10, 5 us: 2 * 7 * 5e-6 + 2 * 7 / 8 * 8e8 / 1e10 = 0.14007 s.
  const auto r = RunCommsim("net scenarios/net/ring_allreduce.json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("# end 0.14007 s, 112 messages"), std::string::npos) << r.out;
}

TEST(NetCommandTest, BadSpecIsAUserErrorNamingFileAndField) {
  const std::string path = std::string(COMMSIM_BINARY) + ".bad_net_spec.json";
  std::ofstream(path) << R"({"workers": 3, "topology": {"name": "ring", "latency": -1}})";
  const auto r = RunCommsim("net " + path);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("error: " + path + ": /topology/latency: "), std::string::npos) << r.out;
  std::remove(path.c_str());
  ExpectCommsim("net does_not_exist.json", 1, {"does_not_exist.json"});
}

TEST(NetCommandTest, ResolvedSpecFillsInDefaults) {
  ExpectCommsim(
      "net --resolved scenarios/net/ring_allreduce.json", 0,
      {"\"pattern\": \"ring_allreduce\"", "\"mtu\": 72000", "\"bandwidth\": 10000000000"});
}

TEST(NetCommandTest, ListShowsTopologiesWithParameters) {
  ExpectCommsim("list", 0,
                {"star", "star_direct", "ring", "torus", "complete", "erdos_renyi", "explicit",
                 "server_bandwidth", "default 1e+09"});
}

}  // namespace
