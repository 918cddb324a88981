// Codec calibration: measures every registered compressor's encode and decode times on this
// machine and fits the codec cost model (algorithms/codec_time.h) by least squares, for
// `commsim calibrate`. The timing helpers are shared with bench/compressor_bench.cc.
//
// Samples: each compressor's default config (the sparsifiers also at k = 0.1%, 1%, 10% of d),
// on Gaussian and on 90%-zero inputs, at every size; each time is the best of `reps` runs in
// thread CPU time (the machine is shared: wall time would count other processes).
// Fit per compressor and direction: seconds = c0 + elem x elements + nnz x coded values +
// bit x payload bits, by least squares (Eigen) over its samples. A term whose column does not
// vary independently of the elements is left out (nnz for dense formats, bits when the bits per
// element do not change); every subset of the remaining terms is fitted and the best fit with all
// coefficients >= 0 is kept (a small non-negative least squares). Fit error: the mean and the
// largest |predicted - measured| / measured over the samples.
#ifndef COMMSIM_SCENARIOS_CODEC_CALIBRATE_H_
#define COMMSIM_SCENARIOS_CODEC_CALIBRATE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/codec_time.h"

namespace commsim {

// CPU seconds of the calling thread.
double ThreadSeconds();
// The smallest ThreadSeconds() of `reps` calls of f.
double BestSeconds(int reps, const std::function<void()>& f);

struct CalibrateOptions {
  std::string device = "cpu_core";
  std::vector<int64_t> sizes = {10'000, 30'000, 100'000, 300'000, 1'000'000, 3'000'000};
  int reps = 5;
  std::string source;  // the profile's `source` text (machine, date, command)
};

struct CalibrateResult {
  CodecProfile profile;
  struct Fit {
    std::string compressor;
    int samples = 0;
    double encode_max_rel_error = 0, decode_max_rel_error = 0;
    double encode_mean_rel_error = 0, decode_mean_rel_error = 0;
  };
  std::vector<Fit> fits;
};

// Runs the measurements (about a minute at the default sizes) and fits every compressor.
CalibrateResult Calibrate(const CalibrateOptions& options);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_CODEC_CALIBRATE_H_
