// libFuzzer driver: a LIBSVM/SVMlight data file through the `libsvm` data set component and a
// problem built on it (fuzz_problem.h).
//
// The input's tail (FuzzedDataProvider takes integers from the end) picks the data set options
// (task, classes, features, standardize, test_fraction, max_samples), the model, the partition,
// workers and seed; the rest, from the front, is the file's text. A bad file is a UserError naming
// the file and line; anything else is a finding.
#include "models/data/fuzz_problem.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzDataFile<commsim::LibsvmDataConfig>(data, size, "libsvm",
                                                                "data.libsvm");
}
