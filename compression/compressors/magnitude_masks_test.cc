// Every version of AtLeastMask64 against the comparison and finiteness test written per element.
#include "compression/compressors/magnitude_masks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

TEST(MagnitudeMasksTest, EveryVersionGivesThePerElementHitsAndFlagsNonFinite) {
  Rng rng(9);
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<double> p(64);
    for (double& v : p) v = rng.Normal();
    const double guess = trial == 5 ? 0.0 : 1.0;
    p[3] = guess;  // equal counts
    p[4] = -guess;
    p[5] = std::nextafter(guess, 0.0);
    p[6] = -0.0;
    p[7] = std::numeric_limits<double>::max();  // finite
    if (trial == 1) p[40] = nan;
    if (trial == 2) p[63] = -inf;
    if (trial == 3) p[0] = inf;
    if (trial == 4) p[17] = -nan;
    uint64_t expected = 0;
    bool non_finite = false;
    for (int k = 0; k < 64; ++k) {
      if (std::abs(p[k]) >= guess) expected |= uint64_t{1} << k;
      non_finite |= !std::isfinite(p[k]);
    }
    for (auto version : {SimdVersion::kPortable, SimdVersion::kAvx2, SimdVersion::kAvx512}) {
      uint64_t flags = 0, hits = 0;
      if (!AtLeastMask64With(version, p.data(), guess, &flags, &hits)) continue;
      EXPECT_EQ(hits, expected) << trial << " " << static_cast<int>(version);
      EXPECT_EQ((flags >> 63) != 0, non_finite) << trial << " " << static_cast<int>(version);
    }
  }
}

}  // namespace
}  // namespace commsim
