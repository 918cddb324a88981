// libFuzzer driver: a codec device profile file (scenarios/codec_profile_file.h, operation
// recipes included) through ParseJsonText and ParseCodecProfile. A bad profile is a UserError;
// a good one must have finite, non-negative coefficients and survive CodecProfileJson and a
// second parse unchanged. Anything else is a finding.
#include <cmath>
#include <string_view>

#include "base/fuzz_support.h"
#include "scenarios/codec_profile_file.h"
#include "scenarios/json_config.h"

namespace {

bool Valid(const commsim::CodecCost& c) {
  for (double x : {c.c0_s, c.elem_s, c.nnz_s, c.bit_s}) {
    if (!std::isfinite(x) || x < 0) return false;
  }
  return true;
}

bool Same(const commsim::CodecCost& a, const commsim::CodecCost& b) {
  return a.c0_s == b.c0_s && a.elem_s == b.elem_s && a.nnz_s == b.nnz_s && a.bit_s == b.bit_s;
}

void FuzzOneProfile(std::string_view text) {
  using commsim::fuzz::FuzzCheck;
  const auto profile =
      commsim::ParseCodecProfile(commsim::ParseJsonText(text, "fuzz.json"), "fuzz.json");
  FuzzCheck(!profile->device.empty(), "a profile without a device was accepted");
  const auto again = commsim::ParseCodecProfile(commsim::CodecProfileJson(*profile), "again");
  FuzzCheck(again->compressors.size() == profile->compressors.size(), "compressors changed");
  for (const auto& [name, c] : profile->compressors) {
    FuzzCheck(Valid(c.encode) && Valid(c.decode), "a coefficient is negative or not finite");
    const auto it = again->compressors.find(name);
    FuzzCheck(it != again->compressors.end() && Same(it->second.encode, c.encode) &&
                  Same(it->second.decode, c.decode),
              "coefficients changed in a write and read");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 16384, FuzzOneProfile);
}
