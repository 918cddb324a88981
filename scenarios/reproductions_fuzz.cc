// libFuzzer driver: a reproductions manifest through LoadReproductions (JSON parse, strict reading
// of every reproduction's keys and every claim's check, names usable as folder names). The input
// is the manifest's text, written to the driver's scratch folder; the scenarios it names are not
// loaded (the scenario driver covers them).
#include <string>
#include <string_view>
#include <vector>

#include "base/fuzz_support.h"
#include "scenarios/reproductions.h"

namespace commsim {
namespace {

void FuzzOneManifest(std::string_view text) {
  const std::vector<Reproduction> all = LoadReproductions(
      fuzz::WriteScratchFile("fuzz_reproductions.json", text.data(), text.size()));
  for (const Reproduction& r : all) {
    fuzz::FuzzCheck(!r.name.empty() && !r.claims.empty(), "a reproduction without name or claims");
    for (const ClaimConfig& c : r.claims) {
      fuzz::FuzzCheck(!c.EntryList().empty(), "a claim without entries");
    }
  }
}

}  // namespace
}  // namespace commsim

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 16384, commsim::FuzzOneManifest);
}
