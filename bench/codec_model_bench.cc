// The codec cost model (algorithms/codec_time.h) against the measured encode and decode time of
// every compressor (its default config) at d = 1e6 and d = 11,173,962 (ResNet-18), on a Gaussian
// vector: model seconds from a device profile (default cpu_core) and the best of --reps runs in
// thread CPU time, with their ratio. A ratio far from 1 at these sizes means the profile was fitted
// on another machine, or the fit extrapolates badly beyond the calibration sizes (up to 3e6).
// Usage: codec_model_bench [--device cpu_core] [--reps 3]
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "bench/bench_flags.h"
#include "compression/codec/link_compressor.h"
#include "scenarios/codec_calibrate.h"
#include "scenarios/codec_profile_file.h"

namespace commsim {
namespace {

void Run(const CodecProfile& profile, int64_t d, int reps) {
  Rng rng(1);
  Eigen::VectorXd x(d), out(d);
  for (int64_t i = 0; i < d; ++i) x[i] = rng.Normal();
  fmt::print("\nd = {}\n{:<16} {:>11} {:>11} {:>7} {:>11} {:>11} {:>7}\n", d, "compressor",
             "enc model", "enc meas.", "ratio", "dec model", "dec meas.", "ratio");
  for (const std::string& name : CompressorRegistry().names()) {
    const std::unique_ptr<LinkCompressor> c =
        MakeLinkCompressor(CompressorRegistry().DefaultSpec(kCompressorKind, name));
    Message m;
    Rng enc(2);
    const double enc_s = BestSeconds(reps, [&] { m = c->Encode(x, enc); });
    const double dec_s = BestSeconds(reps, [&] { c->Decode(m, out); });
    const auto it = profile.compressors.find(name);
    if (it == profile.compressors.end()) {
      fmt::print("{:<16} not in the profile\n", name);
      continue;
    }
    const double enc_model = it->second.encode.Seconds(m), dec_model = it->second.decode.Seconds(m);
    fmt::print("{:<16} {:>9.2f}ms {:>9.2f}ms {:>7.2f} {:>9.2f}ms {:>9.2f}ms {:>7.2f}\n", name,
               1e3 * enc_model, 1e3 * enc_s, enc_model / enc_s, 1e3 * dec_model, 1e3 * dec_s,
               dec_model / dec_s);
  }
}

}  // namespace
}  // namespace commsim

int main(int argc, char** argv) {
  std::string device = "cpu_core";
  int reps = 3;
  bench::Flags flags(argc, argv);
  flags.Text("--device", device);
  flags.Number("--reps", reps, 1);
  if (!flags.Ok("codec_model_bench [--device NAME] [--reps n]")) return 1;
  const auto profile = commsim::ShippedCodecProfile(device);
  if (profile == nullptr) {
    fmt::print(stderr, "no shipped codec profile {}\n", device);
    return 1;
  }
  fmt::print("codec_model_bench: profile {} ({})\n", device, profile->source);
  for (int64_t d : {int64_t{1'000'000}, int64_t{11'173'962}}) commsim::Run(*profile, d, reps);
  return 0;
}
