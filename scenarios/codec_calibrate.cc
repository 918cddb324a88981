#include "scenarios/codec_calibrate.h"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <memory>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "scenarios/compress_report.h"

namespace commsim {
namespace {

struct Sample {
  double elements = 0, nonzeros = 0, bits = 0;
  double encode_s = 0, decode_s = 0;
};

// The configs measured per compressor: the default, and k fractions for the sparsifiers.
std::vector<std::string> Variants(const std::string& name) {
  if (name == "top_k" || name == "rand_k") {
    std::vector<std::string> out;
    for (const char* f : {"0.001", "0.01", "0.1"}) {
      out.push_back(fmt::format(R"({{"name": "{}", "fraction": {}}})", name, f));
    }
    return out;
  }
  return {fmt::format(R"({{"name": "{}"}})", name)};
}

std::vector<Sample> Measure(const std::string& name, const CalibrateOptions& options) {
  std::vector<Sample> samples;
  for (const std::string& text : Variants(name)) {
    const std::unique_ptr<Compressor> c = CompressorRegistry().Make(ParseCompressorArg(text));
    for (int64_t d : options.sizes) {
      for (bool sparse : {false, true}) {
        Rng rng(static_cast<uint64_t>(d) + sparse);
        Eigen::VectorXd x(d), out(d);
        for (int64_t i = 0; i < d; ++i) {
          x[i] = sparse && rng.Uniform() < 0.9 ? 0.0 : rng.Normal();
        }
        Message m;
        Rng enc(3);
        Sample s;
        s.encode_s = BestSeconds(options.reps, [&] { m = c->Encode(x, enc); });
        s.decode_s = BestSeconds(options.reps, [&] { c->Decode(m, out); });
        s.elements = static_cast<double>(d);
        s.nonzeros = static_cast<double>(m.nonzeros >= 0 ? m.nonzeros : d);
        s.bits = static_cast<double>(m.payload_bits);
        samples.push_back(s);
      }
    }
  }
  return samples;
}

// True when column b is not a fixed multiple of the elements (within 5%).
bool Varies(const std::vector<Sample>& samples, double Sample::*column) {
  double lo = 1e300, hi = 0;
  for (const Sample& s : samples) {
    const double r = s.*column / s.elements;
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  return hi > 1.05 * lo + 1e-12;
}

// Relative least squares (each row divided by its measured time, so small sizes count) over the
// columns in `mask` (bit j: c0, elem, nnz, bit). Returns false when a coefficient is negative.
bool SolveSubset(const std::vector<Sample>& samples, double Sample::*target, unsigned mask,
                 Eigen::Vector4d* coef) {
  std::vector<int> cols;
  for (int j = 0; j < 4; ++j) {
    if (mask & (1u << j)) cols.push_back(j);
  }
  const auto n = static_cast<Eigen::Index>(samples.size());
  Eigen::MatrixXd a(n, static_cast<Eigen::Index>(cols.size()));
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Sample& s = samples[static_cast<size_t>(i)];
    const double row[4] = {1.0, s.elements, s.nonzeros, s.bits};
    const double w = 1.0 / std::max(s.*target, 1e-9);
    for (size_t k = 0; k < cols.size(); ++k) a(i, static_cast<Eigen::Index>(k)) = row[cols[k]] * w;
    y[i] = s.*target * w;
  }
  const Eigen::VectorXd sol = a.colPivHouseholderQr().solve(y);
  coef->setZero();
  for (size_t k = 0; k < cols.size(); ++k) {
    if (!(sol[static_cast<Eigen::Index>(k)] >= 0)) return false;
    (*coef)[cols[k]] = sol[static_cast<Eigen::Index>(k)];
  }
  return true;
}

// The non-negative fit: every subset of the usable terms is solved and the one with the smallest
// mean relative error among those with all coefficients >= 0 is kept (4 terms: at most 15 fits).
CodecCost FitCost(const std::vector<Sample>& samples, double Sample::*target, double* max_rel,
                  double* mean_rel) {
  unsigned usable = 0b0011;
  if (Varies(samples, &Sample::nonzeros)) usable |= 0b0100;
  if (Varies(samples, &Sample::bits)) usable |= 0b1000;
  Eigen::Vector4d best = Eigen::Vector4d::Zero();
  *mean_rel = 1e300;
  *max_rel = 0;
  for (unsigned mask = 1; mask < 16; ++mask) {
    Eigen::Vector4d coef;
    if ((mask & ~usable) != 0 || !SolveSubset(samples, target, mask, &coef)) continue;
    double mean = 0, worst = 0;
    for (const Sample& s : samples) {
      const double pred = coef[0] + coef[1] * s.elements + coef[2] * s.nonzeros + coef[3] * s.bits;
      const double rel = std::abs(pred - s.*target) / std::max(s.*target, 1e-12);
      worst = std::max(worst, rel);
      mean += rel / static_cast<double>(samples.size());
    }
    if (mean < *mean_rel) {
      *mean_rel = mean;
      *max_rel = worst;
      best = coef;
    }
  }
  return CodecCost{.c0_s = best[0], .elem_s = best[1], .nnz_s = best[2], .bit_s = best[3]};
}

}  // namespace

double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double BestSeconds(int reps, const std::function<void()>& f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double t0 = ThreadSeconds();
    f();
    best = std::min(best, ThreadSeconds() - t0);
  }
  return best;
}

CalibrateResult Calibrate(const CalibrateOptions& options) {
  CalibrateResult result;
  result.profile.device = options.device;
  result.profile.source = options.source;
  for (const std::string& name : CompressorRegistry().names()) {
    const std::vector<Sample> samples = Measure(name, options);
    CalibrateResult::Fit fit{.compressor = name, .samples = static_cast<int>(samples.size())};
    CodecCoefficients& c = result.profile.compressors[name];
    c.encode =
        FitCost(samples, &Sample::encode_s, &fit.encode_max_rel_error, &fit.encode_mean_rel_error);
    c.decode =
        FitCost(samples, &Sample::decode_s, &fit.decode_max_rel_error, &fit.decode_mean_rel_error);
    result.fits.push_back(fit);
  }
  return result;
}

}  // namespace commsim
