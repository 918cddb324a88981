#include "models/data/cache.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "sim/atomic_file.h"
#include "sim/error.h"

#ifndef COMMSIM_DEFAULT_DATA_DIR
#define COMMSIM_DEFAULT_DATA_DIR "data"
#endif

namespace commsim {
namespace {

constexpr char kMagic[8] = {'C', 'S', 'I', 'M', 'D', 'S', '0', '1'};
constexpr uint32_t kVersion = 1;

template <class T>
void Put(AtomicFileWriter& out, const T& value) {
  out.Write(&value, sizeof(T));
}

template <class T>
bool Get(std::ifstream& in, T& value) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof(T)));
}

}  // namespace

std::string DataDir() {
  const char* env = std::getenv("COMMSIM_DATA_DIR");
  if (env != nullptr && env[0] != '\0') return env;
  return COMMSIM_DEFAULT_DATA_DIR;
}

std::string CachePath(const std::string& data_dir, std::string_view name) {
  return fmt::format("{}/cache/{}.bin", data_dir, name);
}

void WriteDatasetCache(const Dataset& data, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  {
    AtomicFileWriter out(path);  // a temporary renamed over `path` by Commit()
    out.Write(kMagic, sizeof(kMagic));
    Put(out, kVersion);
    Put(out, static_cast<int32_t>(data.num_classes));
    Put(out, static_cast<uint64_t>(data.num_samples()));
    Put(out, static_cast<uint64_t>(data.num_features()));
    Put(out, static_cast<uint32_t>(data.image_shape.size()));
    for (int s : data.image_shape) Put(out, static_cast<int32_t>(s));
    const Eigen::MatrixXf f = data.features.cast<float>();
    out.Write(f.data(), static_cast<size_t>(f.size()) * sizeof(float));
    out.Write(data.targets.data(), static_cast<size_t>(data.targets.size()) * sizeof(double));
    out.Commit();
  }
}

Dataset ReadDatasetCache(const std::string& path, std::string_view name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UserError(fmt::format("{}: data cache for '{}' is missing; build it with `{}`", path,
                                name, kBuildCacheCommand));
  }
  auto corrupt = [&](std::string_view what) {
    return UserError(
        fmt::format("{}: not a valid commsim data cache ({}); rebuild it with `{} --force`", path,
                    what, kBuildCacheCommand));
  };
  char magic[8];
  if (!in.read(magic, sizeof(magic)) || std::memcmp(magic, kMagic, sizeof(magic)) != 0) {
    throw corrupt("bad magic");
  }
  uint32_t version = 0, rank = 0;
  int32_t classes = 0;
  uint64_t samples = 0, features = 0;
  if (!Get(in, version) || version != kVersion) throw corrupt("unknown version");
  if (!Get(in, classes) || !Get(in, samples) || !Get(in, features) || !Get(in, rank) ||
      classes < 0 || rank > 8 || samples > (1ULL << 40) || features > (1ULL << 40)) {
    throw corrupt("bad header");
  }
  Dataset data;
  data.name = std::string(name);
  data.num_classes = classes;
  for (uint32_t i = 0; i < rank; ++i) {
    int32_t s = 0;
    if (!Get(in, s)) throw corrupt("truncated header");
    data.image_shape.push_back(s);
  }
  Eigen::MatrixXf f(static_cast<Eigen::Index>(features), static_cast<Eigen::Index>(samples));
  data.targets.resize(static_cast<Eigen::Index>(samples));
  if (!in.read(reinterpret_cast<char*>(f.data()),
               static_cast<std::streamsize>(f.size() * sizeof(float))) ||
      !in.read(reinterpret_cast<char*>(data.targets.data()),
               static_cast<std::streamsize>(data.targets.size() * sizeof(double)))) {
    throw corrupt("truncated data");
  }
  data.features = f.cast<double>();
  return data;
}

}  // namespace commsim
