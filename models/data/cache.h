// The binary data cache: data sets converted once from their raw form (`commsim data build`) and
// read quickly afterwards.
//
// Layout of `<data dir>/cache/<name>.bin` (version 2, little-endian):
//   "CSIMDS01" | u32 version | i32 num_classes | u64 samples | u64 features | u32 shape rank |
//   i32 shape[rank] | f32 features[features x samples] (column-major) | f64 targets[samples] |
//   u32 crc32 of every byte before it
// Reading verifies, before allocating anything: the magic and version; every header field's range
// (classes in [0, kMaxClasses], samples >= 1, features in [1, kMaxFeatures], samples x features
// within kMaxDataValues, rank 0 or 3 with positive dimensions whose product is `features`); the
// file size against the header; then the checksum, every value finite, every class label an
// integer in [0, num_classes). Any failure is a BadCacheError naming the file and the problem.
// Writes are atomic (a temporary file renamed over the target), so a reader never sees a partial
// cache. A missing cache is a UserError telling the command that builds it.
#ifndef COMMSIM_MODELS_DATA_CACHE_H_
#define COMMSIM_MODELS_DATA_CACHE_H_

#include <string>
#include <string_view>

#include "base/error.h"
#include "models/dataset.h"

namespace commsim {

// A cache file that exists but is not a valid cache (corrupt, truncated, other version).
class BadCacheError : public UserError {
 public:
  explicit BadCacheError(const std::string& message) : UserError(message) {}
};

// $COMMSIM_DATA_DIR when set and non-empty, else data/ in the working directory. The commsim
// program sets COMMSIM_DATA_DIR to <its home folder>/data when the user has not.
std::string DataDir();

// <data_dir>/cache/<name>.bin
std::string CachePath(const std::string& data_dir, std::string_view name);

// The command that (re)builds the cache, for error messages.
inline constexpr std::string_view kBuildCacheCommand = "./commsim data build";

// Writes `data` to `path` atomically, creating parent folders. Throws UserError on I/O failure.
void WriteDatasetCache(const Dataset& data, const std::string& path);

// Reads a cache file; `name` becomes Dataset::name. Throws UserError when the file is missing
// (naming kBuildCacheCommand), BadCacheError when it is not a valid cache.
Dataset ReadDatasetCache(const std::string& path, std::string_view name);

}  // namespace commsim

#endif  // COMMSIM_MODELS_DATA_CACHE_H_
