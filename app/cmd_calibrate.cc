// `commsim calibrate [--out FILE] [--device-name NAME]`: measures the codec cost model's
// coefficients on this machine (scenarios/codec_calibrate.h), prints each compressor's fit
// error, and writes the device profile (to FILE atomically, else to standard output).
// Output safety: FILE is replaced only when it is a profile an earlier `commsim calibrate` wrote
// (its "generated_by" says so); any other existing file is left alone and the command fails.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "app/commands.h"
#include "base/atomic_file.h"
#include "base/error.h"
#include "scenarios/codec_calibrate.h"
#include "scenarios/codec_profile_file.h"
#include "scenarios/json_config.h"

namespace commsim::app {
namespace {

constexpr const char* kGeneratedBy = "commsim calibrate";

void CheckReplaceable(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  bool ours = false;
  try {
    const nlohmann::json doc = LoadJsonFile(path);
    ours = doc.is_object() && doc.value("generated_by", "") == kGeneratedBy;
  } catch (const UserError&) {
    ours = false;
  }
  if (!ours) {
    throw UserError(
        fmt::format("--out {}: the file exists and was not written by `commsim "
                    "calibrate`; choose another path or remove it yourself",
                    path));
  }
}

std::string Today() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string HostName() {
  char buf[256] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string("unknown");
}

}  // namespace

void AddCalibrateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "calibrate", "Measure encode/decode times of every compressor here; write a codec profile");
  struct Args {
    std::string out;
    std::string device = "cpu_core";
    int reps = 5;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("--out", args->out, "profile file to write (default: print it)");
  cmd->add_option("--device-name", args->device, "the profile's device name (default cpu_core)");
  cmd->add_option("--reps", args->reps, "runs per measurement, the best counts (default 5)")
      ->check(CLI::Range(1, 20));
  cmd->callback([args] {
    if (!args->out.empty()) CheckReplaceable(args->out);
    CalibrateOptions options;
    options.device = args->device;
    options.reps = args->reps;
    options.source = fmt::format(
        "measured with `commsim calibrate --device-name {}` on host {} ({} hardware threads) on "
        "{}, one thread, thread CPU time, best of {} runs at d = {}, Gaussian and 90%-zero inputs",
        args->device, HostName(), std::thread::hardware_concurrency(), Today(), args->reps,
        fmt::join(options.sizes, ", "));
    const auto t0 = std::chrono::steady_clock::now();
    const CalibrateResult result = Calibrate(options);
    const double took_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print(stderr, "{:<16} {:>8} {:>26} {:>26}\n", "compressor", "samples",
               "encode fit error mean/max", "decode fit error mean/max");
    for (const CalibrateResult::Fit& f : result.fits) {
      fmt::print(stderr, "{:<16} {:>8} {:>17.1f}% / {:>4.0f}% {:>17.1f}% / {:>4.0f}%\n",
                 f.compressor, f.samples, 100 * f.encode_mean_rel_error,
                 100 * f.encode_max_rel_error, 100 * f.decode_mean_rel_error,
                 100 * f.decode_max_rel_error);
    }
    fmt::print(stderr, "measured in {:.1f} s\n", took_s);
    nlohmann::json doc = CodecProfileJson(result.profile);
    doc["generated_by"] = kGeneratedBy;
    const std::string text = doc.dump(2) + "\n";
    if (args->out.empty()) {
      fmt::print("{}", text);
    } else {
      WriteFileAtomic(args->out, text);
      fmt::print(stderr, "wrote {}\n", args->out);
    }
  });
}

}  // namespace commsim::app
