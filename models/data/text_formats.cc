#include "models/data/text_formats.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <span>
#include <sstream>
#include <utility>
#include <vector>

#include "base/csv_reader.h"
#include "base/error.h"
#include "base/input_file.h"

namespace commsim {
namespace {

std::string Shown(std::string_view text);

bool ParseDouble(std::string_view text, double& value) {
  text = TrimBlanks(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(value);
}

// A feature value: a finite double that is also a finite 32-bit float (the built-in sets are
// cached as floats; a larger magnitude would be inf there).
bool ParseFeature(std::string_view text, double& value, std::string& problem) {
  if (!ParseDouble(text, value)) {
    problem = fmt::format("expected a number, got {}", Shown(text));
    return false;
  }
  if (std::fabs(value) > static_cast<double>(std::numeric_limits<float>::max())) {
    problem = fmt::format("value {} is outside the range of a 32-bit float (magnitude at most {})",
                          Shown(text), std::numeric_limits<float>::max());
    return false;
  }
  return true;
}

// A LIBSVM feature index: decimal digits only, in [1, kMaxFeatures].
bool ParseIndex(std::string_view text, int64_t& index) {
  text = TrimBlanks(text);
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  return !text.empty() && text.front() != '-' && ec == std::errc() &&
         ptr == text.data() + text.size() && index >= 1 && index <= kMaxFeatures;
}

std::string Shown(std::string_view text) {
  text = TrimBlanks(text);
  if (text.empty()) return "an empty field";
  if (text.size() > 40) return fmt::format("'{}...'", text.substr(0, 40));
  return fmt::format("'{}'", text);
}

// Raw rows before the labels are resolved.
struct RawRows {
  std::vector<double> values;  // features, sample after sample
  std::vector<double> labels;
  std::vector<int64_t> lines;  // line number of each sample
};

Dataset Finish(RawRows rows, int64_t num_features, std::string_view origin,
               const LabelOptions& options, int64_t max_memory_bytes) {
  const auto n = static_cast<int64_t>(rows.labels.size());
  if (n == 0) throw UserError(fmt::format("{}: no samples found", origin));
  Dataset data;
  data.name = std::string(origin);
  if (options.classification) {
    bool plus_minus_one = options.num_classes == 0;
    for (double y : rows.labels) plus_minus_one = plus_minus_one && (y == 1.0 || y == -1.0);
    int max_label = 0;
    for (int64_t i = 0; i < n; ++i) {
      double& y = rows.labels[static_cast<size_t>(i)];
      if (plus_minus_one) {
        y = y > 0 ? 1.0 : 0.0;
        continue;
      }
      if (y != std::round(y)) {
        throw UserError(fmt::format("{}:{}: label {} is not an integer class", origin,
                                    rows.lines[static_cast<size_t>(i)], y));
      }
      if (options.num_classes == 0 && y >= static_cast<double>(kMaxClasses)) {
        throw UserError(fmt::format(
            "{}:{}: label {} is too large a class: with \"classes\" 0 (inferred) labels must be "
            "integers in [0, {}) (or all -1/+1)",
            origin, rows.lines[static_cast<size_t>(i)], y, kMaxClasses));
      }
      if (y < 0 || (options.num_classes > 0 && y >= options.num_classes)) {
        throw UserError(fmt::format(
            "{}:{}: label {} out of range, expected an integer in [0, {}){}", origin,
            rows.lines[static_cast<size_t>(i)], y,
            options.num_classes > 0 ? fmt::format("{}", options.num_classes) : "classes",
            options.num_classes > 0 ? "" : " (or all labels -1/+1)"));
      }
      max_label = std::max(max_label, static_cast<int>(y));
    }
    data.num_classes = plus_minus_one ? 2 : std::max(options.num_classes, max_label + 1);
    if (data.num_classes < 2) data.num_classes = 2;
  }
  CheckedDataValues(origin, n, num_features, max_memory_bytes);
  data.features = Eigen::Map<const Eigen::MatrixXd>(rows.values.data(), num_features, n);
  data.targets = Eigen::Map<const Eigen::VectorXd>(rows.labels.data(), n);
  return data;
}

constexpr InputFileRule kDataFileRule = {
    .noun = "data file", .max_bytes = kMaxDataFileBytes, .max_shown = "4 GiB"};
static_assert(kMaxDataFileBytes == uintmax_t{4} << 30, "the limit shown above");

// The first data row fixes the column count; it must hold the label column and a feature.
void CheckFirstRow(std::string_view origin, int64_t line_no, int64_t count, int64_t label_col,
                   int64_t label_column) {
  if (count - 1 > kMaxFeatures) {
    throw UserError(fmt::format("{}:{}: {} columns, more than the {} features a sample may have",
                                origin, line_no, count, kMaxFeatures));
  }
  if (count < 2 || label_col < 0 || label_col >= count) {
    throw UserError(fmt::format(
        "{}:{}: label_column {} does not exist: the row has {} column(s), expected at least "
        "2 with the label column among them",
        origin, line_no, label_column, count));
  }
}

struct LibsvmEntry {
  int64_t sample;
  int64_t index;  // 0-based
  double value;
};

// One line's features (after the label) appended to `entries`; indices must be strictly
// increasing on a line (the LIBSVM convention), which also rules out duplicates.
void ParseLibsvmFeatures(std::span<const std::string_view> tokens, std::string_view origin,
                         int64_t line_no, int64_t sample, const LibsvmOptions& options,
                         std::vector<LibsvmEntry>& entries, int64_t& max_index) {
  int64_t previous = 0;
  for (const std::string_view token : tokens) {
    const size_t colon = token.find(':');
    if (colon == std::string_view::npos) {
      throw UserError(
          fmt::format("{}:{}: expected index:value, got {}", origin, line_no, Shown(token)));
    }
    if (token.substr(0, colon) == "qid") continue;
    int64_t index = 0;
    double value = 0;
    std::string problem;
    if (!ParseIndex(token.substr(0, colon), index)) {
      throw UserError(fmt::format("{}:{}: expected a feature index, an integer in [1, {}], got {}",
                                  origin, line_no, kMaxFeatures, Shown(token.substr(0, colon))));
    }
    if (index == previous) {
      throw UserError(fmt::format("{}:{}: duplicate feature index {}", origin, line_no, index));
    }
    if (index < previous) {
      throw UserError(fmt::format(
          "{}:{}: feature index {} after {}: indices must be increasing on a line (the LIBSVM "
          "convention)",
          origin, line_no, index, previous));
    }
    if (!ParseFeature(token.substr(colon + 1), value, problem)) {
      throw UserError(fmt::format("{}:{}: feature {}: {}", origin, line_no, index, problem));
    }
    if (options.num_features > 0 && index > options.num_features) {
      throw UserError(
          fmt::format("{}:{}: inconsistent feature count: index {} exceeds features = {}", origin,
                      line_no, index, options.num_features));
    }
    previous = index;
    max_index = std::max(max_index, index);
    entries.push_back({sample, index - 1, value});
  }
}

}  // namespace

Dataset ParseLibsvm(std::istream& in, std::string_view origin, const LibsvmOptions& options) {
  std::vector<LibsvmEntry> entries;
  RawRows rows;
  int64_t max_index = 0;
  std::string line;
  for (int64_t line_no = 1; std::getline(in, line); ++line_no) {
    std::string_view text = line;
    if (const size_t hash = text.find('#'); hash != std::string_view::npos)
      text = text.substr(0, hash);
    const std::vector<std::string_view> tokens = SplitFields(TrimBlanks(text), ' ');
    if (tokens.empty()) continue;
    double label = 0;
    if (!ParseDouble(tokens[0], label)) {
      throw UserError(fmt::format("{}:{}: expected a numeric label first, got {}", origin, line_no,
                                  Shown(tokens[0])));
    }
    const auto sample = static_cast<int64_t>(rows.labels.size());
    ParseLibsvmFeatures(std::span(tokens).subspan(1), origin, line_no, sample, options, entries,
                        max_index);
    rows.labels.push_back(label);
    rows.lines.push_back(line_no);
  }
  const int64_t d = options.num_features > 0 ? options.num_features : max_index;
  if (d == 0 && !rows.labels.empty()) throw UserError(fmt::format("{}: no features found", origin));
  const int64_t values = CheckedDataValues(origin, static_cast<int64_t>(rows.labels.size()), d,
                                           options.max_memory_bytes);
  rows.values.assign(static_cast<size_t>(values), 0.0);
  for (const LibsvmEntry& e : entries) {
    rows.values[static_cast<size_t>(e.sample * d + e.index)] = e.value;
  }
  return Finish(std::move(rows), d, origin, options.labels, options.max_memory_bytes);
}

Dataset ParseCsv(std::istream& in, std::string_view origin, const CsvOptions& options) {
  RawRows rows;
  int64_t columns = -1;
  int64_t columns_line = 0;
  int64_t label_col = 0;
  CsvReader reader(in, origin,
                   {.delimiter = options.delimiter, .quotes = false, .loose_lines = true});
  std::vector<std::string> fields;
  if (options.header) reader.Next(fields);
  while (reader.Next(fields)) {
    const int64_t line_no = reader.line();
    const auto count = static_cast<int64_t>(fields.size());
    if (columns < 0) {
      columns = count;
      columns_line = line_no;
      label_col = options.label_column < 0 ? count + options.label_column : options.label_column;
      CheckFirstRow(origin, line_no, count, label_col, options.label_column);
    } else if (count != columns) {
      throw UserError(fmt::format("{}:{}: {}: expected {} columns (as on line {}), found {}",
                                  origin, line_no,
                                  count < columns ? "missing column" : "inconsistent feature count",
                                  columns, columns_line, count));
    }
    for (int64_t c = 0; c < count; ++c) {
      const std::string& field = fields[static_cast<size_t>(c)];
      double value = 0;
      std::string problem;
      const bool ok =
          c == label_col ? ParseDouble(field, value) : ParseFeature(field, value, problem);
      if (!ok) {
        if (problem.empty()) problem = fmt::format("expected a number, got {}", Shown(field));
        throw UserError(fmt::format("{}:{}: column {}: {}", origin, line_no, c + 1, problem));
      }
      (c == label_col ? rows.labels : rows.values).push_back(value);
    }
    // The rows so far must fit the limits before the next one is read (no overflow: fewer than
    // 2^32 rows of at most 2^24 features).
    const auto samples = static_cast<int64_t>(rows.labels.size());
    if (samples * (columns - 1) * kDataBytesPerValue > options.max_memory_bytes ||
        samples * (columns - 1) > kMaxDataValues) {
      CheckedDataValues(fmt::format("{}:{}", origin, line_no), samples, columns - 1,
                        options.max_memory_bytes);
    }
    rows.lines.push_back(line_no);
  }
  return Finish(std::move(rows), std::max<int64_t>(columns - 1, 0), origin, options.labels,
                options.max_memory_bytes);
}

uintmax_t CheckDataFile(const std::string& path) { return CheckInputFile(path, kDataFileRule); }

InputFd OpenDataFile(const std::string& path) { return OpenInputFile(path, kDataFileRule); }

std::string ReadDataFile(const std::string& path) { return ReadInputFile(path, kDataFileRule); }

Dataset LoadLibsvm(const std::string& path, const LibsvmOptions& options) {
  std::istringstream in(ReadDataFile(path));
  return ParseLibsvm(in, path, options);
}

Dataset LoadCsv(const std::string& path, const CsvOptions& options) {
  std::istringstream in(ReadDataFile(path));
  return ParseCsv(in, path, options);
}

}  // namespace commsim
