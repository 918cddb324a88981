// `commsim compress`: compress one vector and compare the measurement with the closed forms.
//
// The input is generated (gaussian, laplace or sparse, from DeriveSeed(seed, 0, "compress-input"))
// or read from a text file of numbers; the encoder's Rng is DeriveSeed(seed, 0, "compress").
// The report holds the measured payload bits, bits per element, ratio to 32-bit floats, relative
// error ||Q(x) - x||^2 / ||x||^2 and nonzeros of the decoded vector, next to the compressor's
// Expected() closed forms (docs/algorithms.md, Compressors).
#ifndef COMMSIM_SCENARIOS_COMPRESS_REPORT_H_
#define COMMSIM_SCENARIOS_COMPRESS_REPORT_H_

#include <Eigen/Core>
#include <cstdint>
#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct CompressOptions {
  ComponentSpec compressor;
  int64_t dim = 0;                // 0: the input file's length (generated inputs need dim >= 1)
  std::string input_path;         // empty: generate from `dist`
  std::string dist = "gaussian";  // gaussian | laplace | sparse (10% nonzero gaussian entries)
  uint64_t seed = 1;
};

struct CompressReport {
  std::string compressor_json;  // the resolved compressor object
  std::string input;            // "gaussian", or the file path
  int64_t dim = 0;
  int64_t payload_bits = 0;
  double relative_error = 0.0;  // ||Q(x) - x||^2 / ||x||^2 (0 for x = 0)
  int64_t nonzeros = 0;
  double input_norm_sq = 0.0;
  bool unbiased = false;
  Expectation expected;
};

// Parses the --compressor argument: a JSON object {"name": ..., params} or a bare name.
// Throws UserError "--compressor: /pointer: ..." on bad input.
ComponentSpec ParseCompressorArg(const std::string& text);

// Reads whitespace- or comma-separated numbers from a regular file of at most 1 GiB
// (base/input_file.h). Throws UserError "path:line: ..." on bad input.
Eigen::VectorXd ReadVectorFile(const std::string& path);

// Generates or loads the input. Throws UserError on bad options.
Eigen::VectorXd MakeCompressInput(const CompressOptions& options);

CompressReport RunCompress(const CompressOptions& options);

// The human-readable table printed by the command.
std::string FormatCompressReport(const CompressReport& report);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_COMPRESS_REPORT_H_
