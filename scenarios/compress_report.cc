#include "scenarios/compress_report.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "algorithms/registry.h"
#include "base/error.h"
#include "base/input_file.h"
#include "base/rng.h"
#include "scenarios/json_config.h"

namespace commsim {

ComponentSpec ParseCompressorArg(const std::string& text) {
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    // Not JSON: a bare compressor name such as `top_k`.
    value = text;
  }
  ComponentSpec spec;
  spec.kind = std::string(kCompressorKind);
  ErrorList errors;
  ReadComponent(value, "", spec, errors);
  errors.ThrowIfAny("--compressor");
  return spec;
}

Eigen::VectorXd ReadVectorFile(const std::string& path) {
  static_assert(kMaxVectorFileBytes == uintmax_t{1} << 30, "the limit shown below");
  std::istringstream in(ReadInputFile(
      path, {.noun = "vector file", .max_bytes = kMaxVectorFileBytes, .max_shown = "1 GiB"}));
  std::vector<double> values;
  std::string line;
  for (int64_t line_no = 1; std::getline(in, line); ++line_no) {
    size_t i = 0;
    while (i < line.size()) {
      if (std::isspace(static_cast<unsigned char>(line[i])) || line[i] == ',') {
        ++i;
        continue;
      }
      if (line[i] == '#') break;  // comment to the end of the line
      const char* begin = line.c_str() + i;
      char* end = nullptr;
      const double v = std::strtod(begin, &end);
      size_t len = static_cast<size_t>(end - begin);
      if (len == 0) {
        size_t j = i;
        while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])) &&
               line[j] != ',') {
          ++j;
        }
        throw UserError(fmt::format("{}:{}: expected a number, got \"{}\"", path, line_no,
                                    line.substr(i, j - i)));
      }
      if (!std::isfinite(v)) {
        throw UserError(fmt::format("{}:{}: expected a finite number, got {}", path, line_no,
                                    line.substr(i, len)));
      }
      values.push_back(v);
      i += len;
    }
  }
  if (values.empty()) throw UserError(fmt::format("{}: no numbers found", path));
  return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

Eigen::VectorXd MakeCompressInput(const CompressOptions& options) {
  if (!options.input_path.empty()) {
    Eigen::VectorXd x = ReadVectorFile(options.input_path);
    if (options.dim != 0 && options.dim != x.size()) {
      throw UserError(fmt::format("--dim: expected {} (the length of {}), got {}", x.size(),
                                  options.input_path, options.dim));
    }
    return x;
  }
  if (options.dim < 1) {
    throw UserError(fmt::format("--dim: expected an integer >= 1, got {}", options.dim));
  }
  Rng rng(options.seed, 0, "compress-input");
  Eigen::VectorXd x(options.dim);
  if (options.dist == "gaussian") {
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = rng.Normal();
  } else if (options.dist == "laplace") {
    // Unit variance: scale 1/sqrt(2), by inversion of the CDF.
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double u = rng.Uniform() - 0.5;
      x[i] = (u < 0 ? 1.0 : -1.0) * std::log1p(-2.0 * std::abs(u)) / std::sqrt(2.0);
    }
  } else if (options.dist == "sparse") {
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      x[i] = rng.Uniform() < 0.1 ? rng.Normal() : 0.0;
    }
  } else {
    throw UserError(
        fmt::format("--dist: expected gaussian, laplace or sparse, got \"{}\"", options.dist));
  }
  return x;
}

CompressReport RunCompress(const CompressOptions& options) {
  const Eigen::VectorXd x = MakeCompressInput(options);
  const std::unique_ptr<Compressor> compressor = CompressorRegistry().Make(options.compressor);
  Rng rng(options.seed, 0, "compress");
  const Message message = compressor->Encode(x, rng);
  Eigen::VectorXd q(x.size());
  compressor->Decode(message, q);
  CompressReport r;
  r.compressor_json = WriteComponent(options.compressor).dump();
  r.input = options.input_path.empty() ? options.dist : options.input_path;
  r.dim = x.size();
  r.payload_bits = message.payload_bits;
  r.input_norm_sq = x.squaredNorm();
  r.relative_error = r.input_norm_sq > 0 ? (q - x).squaredNorm() / r.input_norm_sq : 0.0;
  r.nonzeros = (q.array() != 0.0).count();
  r.unbiased = compressor->unbiased();
  r.expected = compressor->Expected(x);
  return r;
}

std::string FormatCompressReport(const CompressReport& r) {
  const double d = static_cast<double>(r.dim);
  const double bits = static_cast<double>(r.payload_bits);
  const double ebits = r.expected.payload_bits;
  const double erel = r.input_norm_sq > 0 ? r.expected.squared_error / r.input_norm_sq : 0.0;
  auto ratio = [&](double b) { return b > 0 ? fmt::format("{:.2f}x", 32.0 * d / b) : "inf"; };
  std::string out;
  out += fmt::format("compressor       {}\n", r.compressor_json);
  out += fmt::format("input            {}, d = {}{}\n", r.input, r.dim,
                     r.unbiased ? "" : " (compressor is biased)");
  out += fmt::format("{:<16} {:>16} {:>16}\n", "", "measured", "closed form");
  out += fmt::format("{:<16} {:>16} {:>16.1f}  {}\n", "payload bits", r.payload_bits, ebits,
                     r.expected.bits_formula);
  out += fmt::format("{:<16} {:>16.4f} {:>16.4f}\n", "bits/element", bits / d, ebits / d);
  out += fmt::format("{:<16} {:>16} {:>16}\n", "ratio to 32-bit", ratio(bits), ratio(ebits));
  out += fmt::format("{:<16} {:>16.6g} {:>16.6g}  E||Q(x)-x||^2/||x||^2\n", "relative error",
                     r.relative_error, erel);
  out += fmt::format("{:<16} {:>16} {:>16.1f}  E[nnz(Q(x))]\n", "nonzeros", r.nonzeros,
                     r.expected.nonzeros);
  return out;
}

}  // namespace commsim
