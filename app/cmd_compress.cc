#include <fmt/format.h>

#include "app/commands.h"
#include "scenarios/compress_report.h"

namespace commsim::app {

void AddCompressCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compress", "Compress one vector; print bits, error and nonzeros next to the closed forms");
  struct Args {
    std::string compressor;
    int64_t dim = 0;
    std::string input;
    std::string dist = "gaussian";
    uint64_t seed = 1;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("--compressor", args->compressor,
                  R"(compressor as JSON, e.g. '{"name": "block_ternary", "p": "inf"}', or a name)")
      ->required();
  cmd->add_option("--dim", args->dim, "dimension d (required unless --input is given)");
  cmd->add_option("--input", args->input, "text file of numbers to compress instead of --dist");
  cmd->add_option("--dist", args->dist, "generated input: gaussian, laplace or sparse")
      ->check(CLI::IsMember({"gaussian", "laplace", "sparse"}));
  cmd->add_option("--seed", args->seed, "seed of the input and of the encoder's randomness");
  cmd->callback([args] {
    CompressOptions options;
    options.compressor = ParseCompressorArg(args->compressor);
    options.dim = args->dim;
    options.input_path = args->input;
    options.dist = args->dist;
    options.seed = args->seed;
    fmt::print("{}", FormatCompressReport(RunCompress(options)));
  });
}

}  // namespace commsim::app
