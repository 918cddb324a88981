// libFuzzer driver: a LIBSVM/SVMlight data file through the `libsvm` data set component and a
// problem built on it (fuzz_problem.h).
//
// The input's tail (FuzzedDataProvider takes integers from the end) picks the data set options
// (task, classes, features, standardize, test_fraction, max_samples), the model, the partition,
// workers and seed; the rest, from the front, is the file's text. A bad file is a UserError naming
// the file and line; anything else is a finding.
#include "models/data/fuzz_problem.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;  // bounds the work per input
  using namespace commsim;
  FuzzedDataProvider in(data, size);
  ComponentSpec spec = DatasetRegistry().DefaultSpec(kDatasetKind, "libsvm");
  auto& config = static_cast<LibsvmDataConfig&>(*spec.config);
  config.path = (fuzz::ScratchDir() / "data.libsvm").string();
  fuzz::FuzzProblem problem;
  if (!fuzz::FillConfig(in, config, fuzz::kIntCap) || !fuzz::PickProblem(in, spec, problem)) {
    return 0;
  }
  const std::vector<uint8_t> file = in.ConsumeRemainingBytes<uint8_t>();
  fuzz::WriteScratchFile("data.libsvm", file.data(), file.size());
  fuzz::BuildAndEvaluate(problem);
  return 0;
}
