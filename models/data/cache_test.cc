// Cache integrity: every byte of a cache file is covered (magic, version, header ranges, size,
// crc32, values), and a bad cache of a built-in set is rebuilt from raw data or refused.
#include "models/data/cache.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "base/error.h"
#include "models/data/raw_sources.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(COMMSIM_BINARY_DIR) / "test_tmp" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    data_.features.resize(4, 3);  // 4 features = image shape 1 x 2 x 2, 3 samples
    data_.features << 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;
    data_.targets.resize(3);
    data_.targets << 0, 1, 2;
    data_.num_classes = 3;
    data_.image_shape = {1, 2, 2};
    path_ = (dir_ / "cache" / "x.bin").string();
    WriteDatasetCache(data_, path_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Overwrites the bytes at `offset` with `bytes`.
  void Patch(std::streamoff offset, const std::string& bytes) const {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(offset);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::string ErrorOfRead() const {
    try {
      ReadDatasetCache(path_, "x");
    } catch (const BadCacheError& e) {
      return e.what();
    }
    return "(no BadCacheError)";
  }
  std::string Bad(const std::string& what) const {
    return path_ + ": not a valid commsim data cache (" + what +
           "); rebuild it with `./commsim data build --force`";
  }

  // Header: magic 8 | version 4 | classes 4 | samples 8 | features 8 | rank 4 | shape 3 x 4 = 48
  // bytes; then 12 floats (48 bytes), 3 doubles (24 bytes), the crc32 (4 bytes): 124 in all.
  static constexpr std::streamoff kVersionAt = 8, kClassesAt = 12, kSamplesAt = 16, kShapeAt = 36,
                                  kFeaturesAt = 48, kTargetsAt = 96, kSize = 124;
  fs::path dir_;
  Dataset data_;
  std::string path_;
};

std::string Le32(uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

TEST_F(CacheTest, RoundTripHasTheDocumentedSize) {
  EXPECT_EQ(fs::file_size(path_), static_cast<uintmax_t>(kSize));
  const Dataset back = ReadDatasetCache(path_, "x");
  EXPECT_EQ(back.features, data_.features);
  EXPECT_EQ(back.targets, data_.targets);
  EXPECT_EQ(back.image_shape, data_.image_shape);
}

TEST_F(CacheTest, AFlippedByteAnywhereInThePayloadIsDetected) {
  for (std::streamoff at : {kFeaturesAt, kFeaturesAt + 21, kTargetsAt + 7, kSize - 1}) {
    SetUp();
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(at);
    const char c = static_cast<char>(f.get());
    f.seekp(at);
    f.put(static_cast<char>(c ^ 0x10));
    f.close();
    EXPECT_EQ(ErrorOfRead(), Bad("checksum mismatch: the file is corrupted")) << "byte " << at;
  }
}

TEST_F(CacheTest, TruncatedOrExtendedFilesAreDetectedBeforeReading) {
  fs::resize_file(path_, kSize - 5);
  EXPECT_EQ(ErrorOfRead(), Bad("119 bytes, the header describes 124"));
  fs::resize_file(path_, 20);
  EXPECT_EQ(ErrorOfRead(), Bad("truncated header"));
  SetUp();
  std::ofstream(path_, std::ios::app) << "x";
  EXPECT_EQ(ErrorOfRead(), Bad("125 bytes, the header describes 124"));
}

TEST_F(CacheTest, EveryHeaderFieldIsRangeChecked) {
  Patch(kVersionAt, Le32(1));
  EXPECT_EQ(ErrorOfRead(), Bad("format version 1, this commsim reads version 2"));
  SetUp();
  Patch(kClassesAt, Le32(static_cast<uint32_t>(-5)));
  EXPECT_EQ(ErrorOfRead(), Bad("header: class count -5"));
  SetUp();
  Patch(kSamplesAt, std::string(8, '\xff'));
  EXPECT_EQ(ErrorOfRead(), Bad("header: sample count 18446744073709551615"));
  SetUp();
  Patch(kSamplesAt + 8, std::string(8, '\0'));
  EXPECT_EQ(ErrorOfRead(), Bad("header: feature count 0"));
  SetUp();
  Patch(kShapeAt, Le32(static_cast<uint32_t>(-1)));
  EXPECT_EQ(ErrorOfRead(), Bad("header: image dimension -1"));
  SetUp();
  Patch(kShapeAt, Le32(2));  // 2 x 2 x 2 = 8, not the 4 features
  EXPECT_EQ(ErrorOfRead(), Bad("header: image shape of 3 dimensions for 4 features"));
}

TEST_F(CacheTest, LabelsOutsideTheClassesAreRefusedEvenWithAValidChecksum) {
  data_.targets[1] = 7;
  WriteDatasetCache(data_, path_);
  EXPECT_EQ(ErrorOfRead(), Bad("label 7 of sample 1 is not a class in [0, 3)"));
  data_.targets[1] = 1.5;
  WriteDatasetCache(data_, path_);
  EXPECT_EQ(ErrorOfRead(), Bad("label 1.5 of sample 1 is not a class in [0, 3)"));
}

TEST_F(CacheTest, DevicesAreRefused) {
  EXPECT_THROW(ReadDatasetCache("/dev/zero", "x"), UserError);
}

TEST_F(CacheTest, ABadBuiltinCacheIsRebuiltFromRawDataOrRefusedSayingHowToFetchIt) {
  const std::string data_dir = dir_.string();
  const std::string cache = CachePath(data_dir, "iris");
  fs::create_directories(fs::path(cache).parent_path());
  std::ofstream(cache) << "CSIMDS01 an old or damaged cache";
  const std::string refused = [&] {
    try {
      ReadBuiltinCache(data_dir, "iris");
    } catch (const BadCacheError& e) {
      return std::string(e.what());
    }
    return std::string("(no BadCacheError)");
  }();
  EXPECT_NE(refused.find(cache + ": not a valid commsim data cache"), std::string::npos) << refused;
  EXPECT_NE(refused.find("(its raw data is missing too: fetch it with `scripts/fetch_data.sh` "
                         "first)"),
            std::string::npos)
      << refused;
  fs::create_directories(dir_ / "raw" / "sklearn");
  std::ofstream(dir_ / "raw" / "sklearn" / "iris.csv") << "3,1,a,b,c\n1,0\n2,1\n3,2\n";
  const Dataset iris = ReadBuiltinCache(data_dir, "iris");
  EXPECT_EQ(iris.num_samples(), 3);
  EXPECT_EQ(iris.num_classes, 3);
  EXPECT_EQ(ReadDatasetCache(cache, "iris").targets, iris.targets);  // now a valid cache
}

}  // namespace
}  // namespace commsim
