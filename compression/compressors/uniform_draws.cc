#include "compression/compressors/uniform_draws.h"

namespace commsim {
namespace {

constexpr std::string_view kRngChoices[] = {"stream", "counter"};

}  // namespace

void DescribeRngKey(ParamVisitor& v, std::string& rng) {
  v.Text("rng", rng, kRngChoices,
         "source of the per-element random draws: stream (xoshiro256**, the default, as in "
         "earlier releases) or counter (Philox4x32-10 keyed per message; faster)");
}

bool UsesCounterRng(const std::string& rng) { return rng == "counter"; }

}  // namespace commsim
