// libFuzzer driver: a sweep file through LoadSweep (JSON parse, strict reading of the sweep keys,
// axes from values / linspace / logspace with unit strings, the base scenario with `set`,
// fingerprint), then the first and last points' scenarios and cells, and, for sweeps of at most
// kMaxValidatedPoints points, ValidateSweepPoints (every point's scenario parsed and validated).
//
// The input is the sweep file's text, written to the driver's scratch folder next to copies of
// the example scenarios, so `"base": "quickstart.json"` resolves.
#include <filesystem>
#include <string>

#include "base/fuzz_support.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_point.h"

namespace {
constexpr size_t kMaxValidatedPoints = 8;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  const fs::path& dir = commsim::fuzz::ScratchDir();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(COMMSIM_SOURCE_DIR) / "scenarios", ec)) {
    if (e.path().extension() == ".json") fs::copy_file(e.path(), dir / e.path().filename(), ec);
  }
  return 0;
}

namespace commsim {
namespace {

void FuzzOneSweep(std::string_view text) {
  const Sweep sweep =
      LoadSweep(fuzz::WriteScratchFile("fuzz_sweep.json", text.data(), text.size()));
  const size_t n = sweep.size();
  fuzz::FuzzCheck(sweep.fingerprint.size() == 16, "fingerprint is not 16 hex digits");
  if (n == 0) return;
  for (size_t point : {size_t{0}, n - 1}) {
    sweep.PointScenario(point);
    fuzz::FuzzCheck(sweep.PointCells(point).size() == sweep.axes.size(),
                    "a point has not one cell per axis");
    sweep.DescribePoint(point);
  }
  if (n <= kMaxValidatedPoints) ValidateSweepPoints(sweep);
}

}  // namespace
}  // namespace commsim

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 16384, commsim::FuzzOneSweep);
}
