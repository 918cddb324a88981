// Checked simulated time: the int64-picosecond range is 2^63 - 1 ps = 9223372.036854775807 s.
#include "sim/time.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "sim/error.h"

namespace commsim {
namespace {

constexpr int64_t kMaxPs = std::numeric_limits<int64_t>::max();  // 9223372036854775807

template <class F>
std::string LimitMessage(F f) {
  try {
    f();
  } catch (const SimulationLimitError& e) {
    return e.what();
  }
  return "no SimulationLimitError";
}

TEST(SimTimeTest, FromSecondsConvertsUpToTheLimitAndRefusesBeyondIt) {
  EXPECT_EQ(SimTime::FromSeconds(1.5e-6).ps(), 1500000);
  EXPECT_EQ(SimTime::FromSeconds(9223372.0).ps(), 9223372000000000000);
  // 9223372.037 s is 9223372037000000000 ps > 2^63 - 1.
  EXPECT_EQ(LimitMessage([] { SimTime::FromSeconds(9223372.037); }),
            "a duration of 9.223e+06 s is beyond the simulated-time limit of 9.2e6 s (106 days: "
            "int64 picoseconds)");
  EXPECT_NE(LimitMessage([] { SimTime::FromSeconds(-9223372.037); }), "no SimulationLimitError");
  EXPECT_NE(LimitMessage([] { SimTime::FromSeconds(NAN); }), "no SimulationLimitError");
  EXPECT_NE(LimitMessage([] { SimTime::FromSeconds(INFINITY); }), "no SimulationLimitError");
}

TEST(SimTimeTest, SumsDifferencesAndProductsAreCheckedAtTheExactBoundary) {
  EXPECT_EQ((SimTime::FromPs(kMaxPs - 1) + SimTime::FromPs(1)).ps(), kMaxPs);
  EXPECT_NE(LimitMessage([] { (void)(SimTime::Max() + SimTime::FromPs(1)); }),
            "no SimulationLimitError");
  SimTime t = SimTime::FromPs(kMaxPs);
  EXPECT_NE(LimitMessage([&] { t += SimTime::FromPs(1); }), "no SimulationLimitError");
  EXPECT_EQ(t.ps(), kMaxPs);  // unchanged by the refused addition
  EXPECT_EQ((SimTime::FromPs(-kMaxPs) - SimTime::FromPs(1)).ps(),
            std::numeric_limits<int64_t>::min());
  EXPECT_NE(LimitMessage([] { (void)(SimTime::FromPs(-kMaxPs) - SimTime::FromPs(2)); }),
            "no SimulationLimitError");
  // 2^32 ps x 2^30 = 2^62 fits; x 2^31 = 2^63 does not.
  EXPECT_EQ((SimTime::FromPs(int64_t{1} << 32) * (int64_t{1} << 30)).ps(), int64_t{1} << 62);
  EXPECT_NE(LimitMessage([] { (void)(SimTime::FromPs(int64_t{1} << 32) * (int64_t{1} << 31)); }),
            "no SimulationLimitError");
}

TEST(SimTimeTest, TransmitTimeRoundsUpAndRefusesTimesBeyondTheLimit) {
  EXPECT_EQ(TransmitTime(10, 10.0).ps(), 1000000000000);  // 10 bits at 10 bit/s: 1 s
  EXPECT_EQ(TransmitTime(1, 3e12).ps(), 1);               // 1/3 ps rounds up
  // 92233720 bits at 10 bit/s = 9223372 s: fits; one more bit is 9223372.1 s: does not.
  EXPECT_EQ(TransmitTime(92233720, 10.0).ps(), 9223372000000000000);
  EXPECT_EQ(LimitMessage([] { TransmitTime(92233721, 10.0); }),
            "92233721 bits at 10 bit/s take 9.223e+06 s to transmit, beyond the simulated-time "
            "limit of 9.2e6 s (106 days: int64 picoseconds); raise the bandwidth");
  EXPECT_NE(LimitMessage([] { TransmitTime(1, 1e-300); }), "no SimulationLimitError");
}

}  // namespace
}  // namespace commsim
