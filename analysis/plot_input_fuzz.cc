// libFuzzer driver: the CSV files `plot` and `report` read from a run folder (metrics.csv, then
// summary.csv after a form feed '\f'), as a user or a damaged disk may leave them. The folder is
// a marked commsim run folder in the scratch area; gnuplot is a program that does not exist, so
// only the scripts and data are written (through OwnedFolder). Bad input is a UserError;
// anything else (a crash, another exception, a sanitizer report) is a finding.
#include <string>
#include <string_view>

#include "analysis/output_folder.h"
#include "analysis/plot.h"
#include "analysis/report.h"
#include "base/fuzz_support.h"

namespace {

constexpr std::string_view kValidSummary =
    "name,algorithm,status,iterations,final_loss,total_bits,bits_up,bits_down,mean_iter_time_s\n"
    "sgd,sgd,ok,2,0.5,64,32,32,0.001\n";

void FuzzOneRunFolder(std::string_view text) {
  using namespace commsim;
  const auto [metrics, summary] = fuzz::SplitAtFormFeed(text, kValidSummary);
  const std::string dir = (fuzz::ScratchDir() / "run").string();
  fuzz::WriteScratchFile("run/metrics.csv", metrics.data(), metrics.size());
  fuzz::WriteScratchFile("run/summary.csv", summary.data(), summary.size());
  OutputKind kind;
  if (!ReadMarker(dir, &kind)) WriteMarker(dir, OutputKind::kRun);
  fuzz::FuzzGuard([&] { PlotFolder(dir, {.gnuplot = "commsim-no-such-gnuplot", .log = nullptr}); });
  RunReport(dir);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 8192, FuzzOneRunFolder);
}
