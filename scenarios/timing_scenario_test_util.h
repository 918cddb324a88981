// A scenario whose iteration time has a closed form, for the parameter-server acceptance tests
// (ps_acceptance_test.cc, sharded_ps_acceptance_test.cc) and the network keys' timing tests
// (network_keys_test.cc). Header-only; tests only.
#ifndef COMMSIM_SCENARIOS_TIMING_SCENARIO_TEST_UTIL_H_
#define COMMSIM_SCENARIOS_TIMING_SCENARIO_TEST_UTIL_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace commsim::test_scenarios {

// A star topology whose every link has bandwidth `bw` and latency `lat`.
inline nlohmann::json UniformStar(int64_t bw, double lat) {
  return {{"name", "star"},
          {"worker_bandwidth", bw},
          {"server_bandwidth", bw},
          {"worker_latency", lat},
          {"server_latency", lat}};
}

// `algorithm` on a star whose every link has bandwidth `bw` and latency `lat`, whole messages
// (`message` model), fixed compute (50 ms), 3 iterations, step 0.1, `header_bits` per message.
inline nlohmann::json TimingScenario(const std::string& algorithm, int workers, int64_t dim,
                                     int64_t bw, double lat, const std::string& downlink,
                                     int64_t header_bits) {
  using nlohmann::json;
  return json{{"name", "timing"},
              {"workers", workers},
              {"iterations", 3},
              {"header_bits", header_bits},
              {"model", {{"name", "synthetic_quadratic"}, {"dim", dim}}},
              {"network",
               {{"topology", UniformStar(bw, lat)}, {"model", "message"}, {"downlink", downlink}}},
              {"compute", {{"mode", "fixed"}, {"seconds", 0.05}}},
              {"step", {{"size", 0.1}}},
              {"algorithms", json::array({json{{"name", algorithm}}})}};
}

}  // namespace commsim::test_scenarios

#endif  // COMMSIM_SCENARIOS_TIMING_SCENARIO_TEST_UTIL_H_
