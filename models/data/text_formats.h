// Readers for users' own data files: LIBSVM/SVMlight (sparse "label idx:value ...") and CSV
// (dense, one sample per row, a configurable label column). Both are densified in memory.
//
// Contract: every problem is a UserError "<file>:<line>: <what>, expected ..., got ..." (or
// "<file>: ..." for whole-file problems such as an empty file), covering: a missing column, a
// non-numeric value, a label that is not an integer class or is out of range, an inconsistent
// feature count. Empty lines and lines starting with '#' are skipped.
// Class labels: with num_classes > 0 they must be integers in [0, num_classes); with
// num_classes == 0 they are inferred: labels all in {-1, +1} map to {0, 1}, otherwise they must
// be integers in [0, kMaxClasses) and num_classes = max + 1.
// LIBSVM: feature indices must be strictly increasing on a line (the LIBSVM convention; a repeated
// index is reported as a duplicate, a smaller one as out of order). Feature values (both formats)
// must be finite numbers within a 32-bit float's range (magnitude at most 3.4e38); `inf`, `nan`
// and e.g. 1e39 are errors naming the file, line and value.
// Sizes: a feature index or column count above kMaxFeatures, more than kMaxDataValues values in
// all, or more than max_memory_bytes at kDataBytesPerValue (CheckedDataValues, dataset.h) is an
// error before the dense matrix is allocated; CSV rows are checked as they are read.
// Files are read whole through base/input_file.h: a regular file of at most kMaxDataFileBytes.
#ifndef COMMSIM_MODELS_DATA_TEXT_FORMATS_H_
#define COMMSIM_MODELS_DATA_TEXT_FORMATS_H_

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

#include "base/input_file.h"
#include "models/dataset.h"

namespace commsim {

struct LabelOptions {
  bool classification = true;  // false: targets are real-valued (regression)
  int num_classes = 0;         // 0 = infer (see above)
};

struct LibsvmOptions {
  LabelOptions labels;
  int64_t num_features = 0;  // 0 = the largest index seen; else indices above it are errors
  int64_t max_memory_bytes = SimLimits::kDefaultMaxMemoryBytes;
};

struct CsvOptions {
  LabelOptions labels;
  char delimiter = ',';       // ' ' means any run of blanks or tabs
  bool header = false;        // skip the first non-comment line
  int64_t label_column = -1;  // 0-based; negative counts from the end (-1 = last column)
  int64_t max_memory_bytes = SimLimits::kDefaultMaxMemoryBytes;
};

// The data-file rule of base/input_file.h (a regular file, not a device, FIFO or folder, of at most
// kMaxDataFileBytes): CheckDataFile returns its size, OpenDataFile the opened file, ReadDataFile
// its whole content. Each throws UserError naming the file otherwise.
uintmax_t CheckDataFile(const std::string& path);
InputFd OpenDataFile(const std::string& path);
std::string ReadDataFile(const std::string& path);

Dataset LoadLibsvm(const std::string& path, const LibsvmOptions& options);
Dataset LoadCsv(const std::string& path, const CsvOptions& options);

// The same readers on a stream; `origin` names it in messages (usually the file name).
Dataset ParseLibsvm(std::istream& in, std::string_view origin, const LibsvmOptions& options);
Dataset ParseCsv(std::istream& in, std::string_view origin, const CsvOptions& options);

}  // namespace commsim

#endif  // COMMSIM_MODELS_DATA_TEXT_FORMATS_H_
