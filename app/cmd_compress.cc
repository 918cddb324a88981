// `commsim compress`: one vector through a compressor, next to the closed forms.
#include <fmt/format.h>

#include <memory>
#include <string>

#include "app/commands.h"
#include "scenarios/compress_report.h"

namespace commsim::app {

void AddCompressCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compress", "Compress one vector; print bits, error and nonzeros next to the closed forms");
  auto compressor = std::make_shared<std::string>();  // parsed when the command runs
  auto options = std::make_shared<CompressOptions>();
  cmd->add_option("--compressor", *compressor,
                  R"(compressor as JSON, e.g. '{"name": "block_ternary", "p": "inf"}', or a name)")
      ->required();
  cmd->add_option("--dim", options->dim, "dimension d (required unless --input is given)");
  cmd->add_option("--input", options->input_path,
                  "text file of numbers to compress instead of --dist");
  cmd->add_option("--dist", options->dist, "generated input: gaussian, laplace or sparse")
      ->check(CLI::IsMember({"gaussian", "laplace", "sparse"}))
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "seed of the input and of the encoder's randomness")
      ->capture_default_str();
  cmd->callback([compressor, options] {
    options->compressor = ParseCompressorArg(*compressor);
    fmt::print("{}", FormatCompressReport(RunCompress(*options)));
  });
}

}  // namespace commsim::app
