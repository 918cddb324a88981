#include "models/data/cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include "base/atomic_file.h"
#include "base/error.h"
#include "models/data/text_formats.h"

#ifndef COMMSIM_DEFAULT_DATA_DIR
#define COMMSIM_DEFAULT_DATA_DIR "data"
#endif

namespace commsim {
namespace {

constexpr char kMagic[8] = {'C', 'S', 'I', 'M', 'D', 'S', '0', '1'};
constexpr uint32_t kVersion = 2;
constexpr int32_t kMaxImageSide = 1 << 16;

// An output stream that keeps the crc32 of everything written through it.
class CrcWriter {
 public:
  explicit CrcWriter(AtomicFileWriter& out) : out_(out) {}
  void Write(const void* data, size_t bytes) {
    crc_ = crc32_z(crc_, static_cast<const Bytef*>(data), bytes);
    out_.Write(data, bytes);
  }
  template <class T>
  void Put(const T& value) {
    Write(&value, sizeof(T));
  }
  uLong crc() const { return crc_; }

 private:
  AtomicFileWriter& out_;
  uLong crc_ = crc32_z(0L, Z_NULL, 0);
};

// The reading side: every read is checked and enters the crc32.
class CrcReader {
 public:
  explicit CrcReader(std::ifstream& in) : in_(in) {}
  bool Read(void* data, size_t bytes) {
    if (!in_.read(static_cast<char*>(data), static_cast<std::streamsize>(bytes))) return false;
    crc_ = crc32_z(crc_, static_cast<const Bytef*>(data), bytes);
    return true;
  }
  template <class T>
  bool Get(T& value) {
    return Read(&value, sizeof(T));
  }
  uLong crc() const { return crc_; }

 private:
  std::ifstream& in_;
  uLong crc_ = crc32_z(0L, Z_NULL, 0);
};

struct Header {
  int32_t classes = 0;
  uint64_t samples = 0;
  uint64_t features = 0;
  std::vector<int> shape;
};

// The problem with a header's fields, or "" when they are all in range.
std::string HeaderProblem(const Header& h) {
  if (h.classes < 0 || h.classes > kMaxClasses) return fmt::format("class count {}", h.classes);
  if (h.samples < 1 || h.samples > static_cast<uint64_t>(kMaxDataValues)) {
    return fmt::format("sample count {}", h.samples);
  }
  if (h.features < 1 || h.features > static_cast<uint64_t>(kMaxFeatures)) {
    return fmt::format("feature count {}", h.features);
  }
  if (h.samples * h.features > static_cast<uint64_t>(kMaxDataValues)) {
    return fmt::format("{} samples x {} features", h.samples, h.features);
  }
  if (!h.shape.empty()) {
    uint64_t product = 1;
    for (int s : h.shape) {
      if (s < 1 || s > kMaxImageSide) return fmt::format("image dimension {}", s);
      product *= static_cast<uint64_t>(s);  // < 2^48: no overflow
    }
    if (h.shape.size() != 3 || product != h.features) {
      return fmt::format("image shape of {} dimensions for {} features", h.shape.size(),
                         h.features);
    }
  }
  return "";
}

// Reads the header after checking the magic and the format version; throws corrupt(what) when
// it is truncated or out of range.
Header ReadHeader(CrcReader& r, const std::function<BadCacheError(std::string_view)>& corrupt) {
  char magic[8];
  if (!r.Read(magic, sizeof(magic)) || std::memcmp(magic, kMagic, sizeof(magic)) != 0) {
    throw corrupt("bad magic");
  }
  uint32_t version = 0, rank = 0;
  Header h;
  if (!r.Get(version)) throw corrupt("truncated header");
  if (version != kVersion) {
    throw corrupt(
        fmt::format("format version {}, this commsim reads version {}", version, kVersion));
  }
  if (!r.Get(h.classes) || !r.Get(h.samples) || !r.Get(h.features) || !r.Get(rank)) {
    throw corrupt("truncated header");
  }
  if (rank > 8) throw corrupt(fmt::format("image shape of {} dimensions", rank));
  for (uint32_t i = 0; i < rank; ++i) {
    int32_t s = 0;
    if (!r.Get(s)) throw corrupt("truncated header");
    h.shape.push_back(s);
  }
  if (const std::string problem = HeaderProblem(h); !problem.empty()) {
    throw corrupt("header: " + problem);
  }
  return h;
}

// The problem with the values, or "": all finite, labels integer classes.
std::string ValuesProblem(const Eigen::MatrixXf& features, const Eigen::VectorXd& targets,
                          int classes) {
  if (!features.allFinite()) return "a feature value is not finite";
  for (Eigen::Index i = 0; i < targets.size(); ++i) {
    const double y = targets[i];
    if (!std::isfinite(y)) return fmt::format("target {} is not finite", i);
    if (classes > 0 && !(y >= 0 && y < classes && y == std::floor(y))) {
      return fmt::format("label {} of sample {} is not a class in [0, {})", y, i, classes);
    }
  }
  return "";
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

namespace {

// Throws UserError unless `path` is absent or a regular file that starts with a cache's magic
// bytes: `data build` replaces only the caches it wrote, never a file the user put in their place.
void CheckCacheReplaceable(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return;
  char magic[sizeof(kMagic)] = {};
  struct stat st {};
  const bool ours = fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                    ::read(fd, magic, sizeof(magic)) == static_cast<ssize_t>(sizeof(magic)) &&
                    std::memcmp(magic, kMagic, sizeof(magic)) == 0;
  if (fd >= 0) ::close(fd);
  if (!ours) {
    throw UserError(
        fmt::format("{}: exists and is not a data cache commsim wrote (a link, or "
                    "another file); move it away or set COMMSIM_DATA_DIR elsewhere",
                    path));
  }
}

}  // namespace

void WriteDatasetCache(const Dataset& data, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  CheckCacheReplaceable(path);
  AtomicFileWriter out(path);  // a temporary renamed over `path` by Commit()
  CrcWriter w(out);
  w.Write(kMagic, sizeof(kMagic));
  w.Put(kVersion);
  w.Put(static_cast<int32_t>(data.num_classes));
  w.Put(static_cast<uint64_t>(data.num_samples()));
  w.Put(static_cast<uint64_t>(data.num_features()));
  w.Put(static_cast<uint32_t>(data.image_shape.size()));
  for (int s : data.image_shape) w.Put(static_cast<int32_t>(s));
  const Eigen::MatrixXf f = data.features.cast<float>();
  w.Write(f.data(), static_cast<size_t>(f.size()) * sizeof(float));
  w.Write(data.targets.data(), static_cast<size_t>(data.targets.size()) * sizeof(double));
  const auto crc = static_cast<uint32_t>(w.crc());
  out.Write(&crc, sizeof(crc));
  out.Commit();
}

Dataset ReadDatasetCache(const std::string& path, std::string_view name) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw UserError(fmt::format("{}: data cache for '{}' is missing; build it with `{}`", path,
                                name, kBuildCacheCommand));
  }
  const uintmax_t file_bytes = CheckDataFile(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("{}: cannot open the data cache", path));
  auto corrupt = [&](std::string_view what) {
    return BadCacheError(
        fmt::format("{}: not a valid commsim data cache ({}); rebuild it with `{} --force`", path,
                    what, kBuildCacheCommand));
  };
  CrcReader r(in);
  const Header h = ReadHeader(r, corrupt);
  const uint64_t rank = h.shape.size();
  // magic | version, classes, rank | samples, features | shape | payload | crc32
  const uint64_t expected = sizeof(kMagic) + 3 * sizeof(uint32_t) + 2 * sizeof(uint64_t) +
                            rank * sizeof(int32_t) + h.samples * h.features * sizeof(float) +
                            h.samples * sizeof(double) + sizeof(uint32_t);
  if (file_bytes != expected) {
    throw corrupt(fmt::format("{} bytes, the header describes {}", file_bytes, expected));
  }
  Dataset data;
  data.name = std::string(name);
  data.num_classes = h.classes;
  data.image_shape = h.shape;
  Eigen::MatrixXf f(static_cast<Eigen::Index>(h.features), static_cast<Eigen::Index>(h.samples));
  data.targets.resize(static_cast<Eigen::Index>(h.samples));
  uint32_t stored_crc = 0;
  if (!r.Read(f.data(), static_cast<size_t>(f.size()) * sizeof(float)) ||
      !r.Read(data.targets.data(), static_cast<size_t>(data.targets.size()) * sizeof(double))) {
    throw corrupt("truncated data");
  }
  const auto computed_crc = static_cast<uint32_t>(r.crc());
  if (!in.read(reinterpret_cast<char*>(&stored_crc), sizeof(stored_crc))) {
    throw corrupt("truncated checksum");
  }
  if (stored_crc != computed_crc) throw corrupt("checksum mismatch: the file is corrupted");
  if (const std::string problem = ValuesProblem(f, data.targets, h.classes); !problem.empty()) {
    throw corrupt(problem);
  }
  data.features = f.cast<double>();
  return data;
}

}  // namespace commsim
