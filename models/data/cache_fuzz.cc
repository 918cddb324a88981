// libFuzzer driver: a data cache file (data/cache/<name>.bin, models/data/cache.h) read as one of
// the built-in data sets, and a problem built on it (fuzz_problem.h).
//
// The input's tail (FuzzedDataProvider takes integers from the end) picks the built-in set (any
// registered data set whose config is a BuiltinDataConfig), its options, the model, the partition,
// workers and seed; the rest, from the front, is the cache file. COMMSIM_DATA_DIR points at the
// driver's scratch folder. A bad cache is a UserError naming the file; anything else is a finding.
#include <cstdlib>

#include "models/data/cache.h"
#include "models/data/fuzz_problem.h"

namespace {

bool IsBuiltin(const commsim::ComponentSpec& spec) {
  return dynamic_cast<const commsim::BuiltinDataConfig*>(spec.config.get()) != nullptr;
}

void FuzzOneCache(FuzzedDataProvider& in) {
  using namespace commsim;
  ComponentSpec spec;
  fuzz::FuzzProblem problem;
  if (!fuzz::PickComponent(in, DatasetRegistry(), kDatasetKind, spec, IsBuiltin) ||
      !fuzz::PickProblem(in, spec, problem)) {
    return;
  }
  const std::string& name = static_cast<const BuiltinDataConfig&>(*spec.config).cache_name;
  const std::vector<uint8_t> file = in.ConsumeRemainingBytes<uint8_t>();
  fuzz::WriteScratchFile("data/cache/" + name + ".bin", file.data(), file.size());
  fuzz::BuildAndEvaluate(problem);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("COMMSIM_DATA_DIR", (commsim::fuzz::ScratchDir() / "data").c_str(), 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzWithProvider(data, size, 16384, FuzzOneCache);
}
