// Checked simulated time: the int64-picosecond range is 2^63 - 1 ps = 9223372.036854775807 s.
#include "sim/time.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "base/error.h"

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

// The reference: ceil(bits x 1e12 / bandwidth) picoseconds in integer arithmetic (128-bit, so
// bits x 1e12 cannot overflow).
int64_t ReferenceCeilPs(int64_t bits, int64_t bandwidth_bps) {
  __extension__ typedef unsigned __int128 U128;
  const U128 num = static_cast<U128>(bits) * 1'000'000'000'000u;
  const U128 bw = static_cast<U128>(bandwidth_bps);
  return static_cast<int64_t>((num + bw - 1) / bw);
}

TEST(SimTimeTest, TransmitTimeIsTheExactCeilingAtBandwidthsThatDoNotDivideOneSecond) {
  // By hand: 1 bit at 999,999 bit/s = 1,000,001.000001 ps -> 1,000,002 (a fraction of 1e-6 ps
  // still rounds up); 8000 bits at 3 Gbit/s = 2,666,666.67 ps -> 2,666,667; 1000 bits at
  // 7 Mbit/s = 142,857,142.86 ps -> 142,857,143; exact quotients are not rounded up.
  EXPECT_EQ(TransmitTime(1, 999'999.0).ps(), 1'000'002);
  EXPECT_EQ(TransmitTime(8000, 3e9).ps(), 2'666'667);
  EXPECT_EQ(TransmitTime(1000, 7e6).ps(), 142'857'143);
  EXPECT_EQ(TransmitTime(999'999, 999'999.0).ps(), 1'000'000'000'000);
  EXPECT_EQ(TransmitTime(3, 3e9).ps(), 1000);
  EXPECT_EQ(TransmitTime(0, 999'999.0).ps(), 0);
  // 2^40 bits at 999,999 bit/s (bits x 1e12 is beyond 2^64): 1,099,511,627,776 x 1e12 / 999,999
  // = 1,099,512,727,288,727,288.7... ps.
  EXPECT_EQ(TransmitTime(int64_t{1} << 40, 999'999.0).ps(), 1'099'512'727'288'727'289);
  // 36,893,491 bits (a 1.15M-parameter float32 model) at 1 Gbit/s: exactly 1000 ps per bit. In
  // double precision bits x 1e12 is not exact and the quotient came out 1 ps too long.
  EXPECT_EQ(TransmitTime(36'893'491, 1e9).ps(), 36'893'491'000);
  // 9,223,372 bits at 1 bit/s = 9,223,372e12 ps fits in int64; 9,223,373 bits is beyond 2^63 - 1
  // ps and is refused, not wrapped to a negative time.
  EXPECT_EQ(TransmitTime(9'223'372, 1.0).ps(), 9'223'372'000'000'000'000);
  EXPECT_NE(LimitMessage([] { TransmitTime(9'223'373, 1.0); }), "no SimulationLimitError");
  for (int64_t bw :
       {int64_t{3'000'000'000}, int64_t{7'000'000}, int64_t{999'999}, int64_t{12'345'678'901}}) {
    int64_t mismatches = 0, first = -1;
    for (int64_t bits = 0; bits < 100'000; ++bits) {
      if (TransmitTime(bits, static_cast<double>(bw)).ps() != ReferenceCeilPs(bits, bw)) {
        if (mismatches++ == 0) first = bits;
      }
    }
    EXPECT_EQ(mismatches, 0) << "at " << bw << " bit/s, first at " << first
                             << " bits: " << TransmitTime(first, static_cast<double>(bw)).ps()
                             << " ps, not " << ReferenceCeilPs(first, bw);
  }
}

}  // namespace
}  // namespace commsim
