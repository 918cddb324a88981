// Encode/decode throughput of every compressor and coding at d = 1e6 and d = 11,173,962
// (ResNet-18), next to memcpy bandwidth measured in the same run.
//
// Throughput is in GB/s of fp32 input (4 bytes per element, as the issue asks), and memcpy copies
// a 4d-byte buffer, so "enc/memcpy" = memcpy time / encode time. (The encoders actually read the
// fp64 vector, 8 bytes per element.) Each figure is the best of --reps runs, in thread CPU time.
// The memcpy a row is compared with is timed in the same loop as its encodes (each rep: one
// copy, then one encode; the best of each), its decodes after them back to back as before: the
// machine's memory bandwidth drifts by 15-25% within minutes, so a copy timed once at the start
// moved every share by as much (qsgd fixed: 15-21% in four runs, against 18-22% timed this way).
// "floor/mcpy" is the highest enc/memcpy the row can reach on this machine: memcpy time / (its
// passes over the input x one read pass), the read pass measured in the same run
// (bench/memory_floor.h).
// The allocator is set up as the commsim program sets it (app/main.cc: no mmap for large blocks,
// no heap trimming), so a message's buffer is not page-faulted in afresh on every encode.
// Usage: compressor_bench [--dims 1000000,11173962] [--reps 3] [--only SUBSTRING]
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "bench/bench_flags.h"
#include "bench/bench_timing.h"
#include "bench/memory_floor.h"
#include "scenarios/codec_calibrate.h"
#include "scenarios/compress_report.h"

namespace commsim {
namespace {

// ThreadSeconds and BestSeconds (scenarios/codec_calibrate.h) time in CPU time of this thread:
// the machine is shared, and wall time counts the time other processes hold the core.

// Label, compressor JSON (block_ternary p = inf b = 256, qsgd s = 15 b = 512, k = 1% of d) and the
// encoder's passes over its fp64 input from memory (8d bytes, far beyond L2), read from the code:
// - block_ternary, qsgd, scaled_sign: per block (b = 256 or 512 values, 2-4 KB) a norm pass and
//   then the quantize/sign pass; the second read of the block hits L1, so 1 pass from memory.
//   (entropy also writes and re-reads one symbol byte per element: not counted.)
// - identity: 1 pass (convert, check and write in one loop).
// - top_k: a small sample, then one candidate pass over x (the values come from it): 1 pass
//   (2 only when the sampled threshold fails, which Gaussian input does not make happen).
// - rand_k: the finiteness pass, then k = 1% random reads (one cache line each, about 8% of the
//   lines again): counted as 1 pass.
// - dithered: the global L2 norm x.norm() must be known before the first level, so a norm pass
//   and a level pass over the whole 89 MB vector: 2 passes.
// "counter": the stochastic quantizers with "rng": "counter" (Philox draws), next to the default
// xoshiro stream.
struct Variant {
  const char* label;
  const char* json;
  int passes;
};
const Variant kVariants[] = {
    {"identity", R"({"name": "identity"})", 1},
    {"block_ternary inf fixed2", R"({"name": "block_ternary", "coding": "fixed2"})", 1},
    {"block_ternary inf fixed2 counter",
     R"({"name": "block_ternary", "coding": "fixed2", "rng": "counter"})", 1},
    {"block_ternary inf packed", R"({"name": "block_ternary", "coding": "packed"})", 1},
    {"block_ternary inf packed counter",
     R"({"name": "block_ternary", "coding": "packed", "rng": "counter"})", 1},
    {"block_ternary inf sparse", R"({"name": "block_ternary", "coding": "sparse"})", 1},
    {"block_ternary inf sparse counter",
     R"({"name": "block_ternary", "coding": "sparse", "rng": "counter"})", 1},
    {"block_ternary inf entropy", R"({"name": "block_ternary", "coding": "entropy"})", 1},
    {"block_ternary 2 sparse", R"({"name": "block_ternary", "p": 2, "coding": "sparse"})", 1},
    {"qsgd fixed", R"({"name": "qsgd", "coding": "fixed"})", 1},
    {"qsgd fixed counter", R"({"name": "qsgd", "coding": "fixed", "rng": "counter"})", 1},
    {"qsgd elias", R"({"name": "qsgd", "coding": "elias"})", 1},
    {"qsgd elias counter", R"({"name": "qsgd", "coding": "elias", "rng": "counter"})", 1},
    {"top_k 1% fixed", R"({"name": "top_k", "index_coding": "fixed"})", 1},
    {"top_k 1% golomb", R"({"name": "top_k", "index_coding": "golomb"})", 1},
    {"rand_k 1%", R"({"name": "rand_k"})", 1},
    {"scaled_sign l1 b=256", R"({"name": "scaled_sign"})", 1},
    {"dithered s=15", R"({"name": "dithered"})", 2},
    {"dithered s=15 counter", R"({"name": "dithered", "rng": "counter"})", 2},
};

void Run(int64_t d, int reps, const std::string& only) {
  Rng rng(1);
  Eigen::VectorXd x(d);
  for (int64_t i = 0; i < d; ++i) x[i] = rng.Normal();
  std::vector<float> src(static_cast<size_t>(d), 1.0f), dst(static_cast<size_t>(d));
  const double bytes = 4.0 * static_cast<double>(d);
  const auto copy = [&] {
    std::memcpy(dst.data(), src.data(), static_cast<size_t>(d) * sizeof(float));
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  };
  const double t_copy = BestSeconds(std::max(reps, 5), copy);
  const double t_read = BestSeconds(std::max(reps, 5), [&] { bench::ReadPass(x.data(), d); });
  fmt::print(
      "\nd = {}: memcpy {:.2f} GB/s ({:.2f} ms for {:.1f} MB); one read pass over the fp64 "
      "input {:.2f} ms ({:.2f} GB/s)\n",
      d, bytes / t_copy / 1e9, t_copy * 1e3, bytes / 1e6, t_read * 1e3, 2 * bytes / t_read / 1e9);
  fmt::print("{:<34} {:>8} {:>9} {:>9} {:>9} {:>9} {:>6} {:>9} {:>6}\n", "compressor", "bits/elt",
             "enc GB/s", "enc/mcpy", "dec GB/s", "dec/mcpy", "passes", "floor/mcpy", "mcpy");
  double copy_low = 1e300, copy_high = 0;  // the rows' memcpy GB/s: how far it drifted
  Eigen::VectorXd out(d);
  for (const auto& [label, text, passes] : kVariants) {
    if (std::string(label).find(only) == std::string::npos) continue;
    const ComponentSpec spec = ParseCompressorArg(text);
    const std::unique_ptr<Compressor> c = CompressorRegistry().Make(spec);
    Message m;
    Rng enc_rng(2);
    double t_row_copy = 1e300, t_enc = 1e300, t_dec = 0;
    for (int r = 0; r < reps; ++r) {
      t_row_copy = std::min(t_row_copy, BestSeconds(1, copy));
      t_enc = std::min(t_enc, BestSeconds(1, [&] { m = c->Encode(x, enc_rng); }));
    }
    t_dec = BestSeconds(reps, [&] { c->Decode(m, out); });
    benchmark::DoNotOptimize(out.data());
    const double enc_gbs = bytes / t_enc / 1e9, dec_gbs = bytes / t_dec / 1e9;
    const double copy_gbs = bytes / t_row_copy / 1e9;
    copy_low = std::min(copy_low, copy_gbs);
    copy_high = std::max(copy_high, copy_gbs);
    const double bits = static_cast<double>(m.payload_bits) / static_cast<double>(d);
    fmt::print("{:<34} {:>8.3f} {:>9.2f} {:>8.0f}% {:>9.2f} {:>8.0f}% {:>6} {:>9.0f}% {:>6.1f}\n",
               label, bits, enc_gbs, 100 * enc_gbs / copy_gbs, dec_gbs, 100 * dec_gbs / copy_gbs,
               passes, 100 * t_row_copy / (passes * t_read), copy_gbs);
  }
  if (copy_high > 0) {
    fmt::print(
        "each row against the memcpy timed between its own encodes (\"mcpy\", GB/s): "
        "{:.2f}-{:.2f} in this run\n",
        copy_low, copy_high);
  }
}

}  // namespace
}  // namespace commsim

int main(int argc, char** argv) {
  bench::UseCommsimAllocator(argv);
  std::vector<int64_t> dims = {1'000'000, 11'173'962};
  int reps = 3;
  std::string only;
  std::string dim_list;
  bench::Flags flags(argc, argv);
  flags.Text("--only", only);
  flags.Number("--reps", reps, 1);
  flags.Text("--dims", dim_list);
  if (!flags.Ok("compressor_bench [--dims d1,d2,...] [--reps n] [--only substring]")) return 1;
  if (!dim_list.empty()) dims.clear();
  for (size_t pos = 0; pos < dim_list.size();) {
    const size_t comma = std::min(dim_list.find(',', pos), dim_list.size());
    dims.push_back(std::stoll(dim_list.substr(pos, comma - pos)));
    pos = comma + 1;
  }
  fmt::print("compressor_bench: Gaussian input, best of {} runs; GB/s of fp32 input (4 B/elt)\n",
             reps);
  for (int64_t d : dims) commsim::Run(d, reps, only);
  return 0;
}
