// The cache writer under injected faults (issue #18): a failed or interrupted write never leaves a
// cache file that a reader would load.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.h"
#include "base/error.h"
#include "base/file_test_util.h"
#include "models/data/cache.h"
#include "models/data/raw_sources.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;
using test_files::SignalOfChild;

Dataset Small(double value) {
  Dataset d;
  d.features = Eigen::MatrixXd::Constant(3, 4, value);
  d.targets = Eigen::VectorXd::Constant(4, 1.0);
  d.num_classes = 2;
  return d;
}

class CacheWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_files::UnusedPath("cache_write_test");
    path_ = (dir_ / "cache" / "small.bin").string();
    WriteDatasetCache(Small(0.5), path_);
    old_bytes_ = Read(path_);
  }
  void TearDown() override {
    SetWriteFaultForTesting({});
    fs::remove_all(dir_);
  }
  size_t FilesInCacheFolder() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir_ / "cache"), {}));
  }
  fs::path dir_;
  std::string path_;
  std::string old_bytes_;
};

TEST_F(CacheWriteTest, FailedWriteThrowsNamingTheCacheAndKeepsTheOldOne) {
  for (const WriteFaultStage stage :
       {WriteFaultStage::kAfterBytes, WriteFaultStage::kBeforeRename}) {
    SetWriteFaultForTesting({stage, WriteFaultAction::kFail, "small.bin", 30});
    try {
      WriteDatasetCache(Small(2.0), path_);
      FAIL();
    } catch (const UserError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path_ + ": ", 0), 0u) << e.what();
    }
    EXPECT_EQ(Read(path_), old_bytes_);
    EXPECT_EQ(FilesInCacheFolder(), 1u);
  }
}

TEST_F(CacheWriteTest, CrashMidWriteLeavesTheOldCacheLoadable) {
  const int signal = SignalOfChild([&] {
    SetWriteFaultForTesting(
        {WriteFaultStage::kAfterBytes, WriteFaultAction::kCrash, "small.bin", 30});
    WriteDatasetCache(Small(2.0), path_);
  });
  ASSERT_EQ(signal, SIGKILL) << "the cache was not written through the atomic writer";
  EXPECT_EQ(Read(path_), old_bytes_);
  const Dataset loaded = ReadDatasetCache(path_, "small");
  EXPECT_EQ(loaded.features(2, 3), 0.5);
}

TEST_F(CacheWriteTest, CrashBeforeTheFirstCacheExistsLeavesNoCache) {
  const std::string fresh = (dir_ / "cache" / "fresh.bin").string();
  const int signal = SignalOfChild([&] {
    SetWriteFaultForTesting(
        {WriteFaultStage::kBeforeRename, WriteFaultAction::kCrash, "fresh.bin", 0});
    WriteDatasetCache(Small(2.0), fresh);
  });
  ASSERT_EQ(signal, SIGKILL);
  EXPECT_FALSE(fs::exists(fresh));
  EXPECT_THROW(ReadDatasetCache(fresh, "fresh"), UserError);
}

// A damaged built-in cache is rebuilt from raw data on use; when that rebuild is killed between
// writing the new cache and renaming it into place, the next use neither trusts the unrenamed
// temporary nor the damaged file: it rebuilds again and gets the raw data's values.
TEST_F(CacheWriteTest, BuiltinCacheRebuildKilledBeforeRenameIsRebuiltOnNextUse) {
  const std::string data_dir = (dir_ / "data").string();
  const std::string cache = CachePath(data_dir, "iris");
  fs::create_directories(fs::path(cache).parent_path());
  const std::string damaged = "CSIMDS01 an old or damaged cache";
  std::ofstream(cache) << damaged;
  fs::create_directories(dir_ / "data" / "raw" / "sklearn");
  // scikit-learn's CSV layout: "samples,features,class names", then features and label per row.
  std::ofstream(dir_ / "data" / "raw" / "sklearn" / "iris.csv")
      << "3,1,a,b,c\n1.5,0\n2.5,1\n3.5,2\n";
  const int signal = SignalOfChild([&] {
    SetWriteFaultForTesting(
        {WriteFaultStage::kBeforeRename, WriteFaultAction::kCrash, "iris.bin", 0});
    ReadBuiltinCache(data_dir, "iris");
  });
  ASSERT_EQ(signal, SIGKILL) << "the rebuilt cache was not written through the atomic writer";
  EXPECT_EQ(Read(cache), damaged);  // the complete but unrenamed rebuild is not in place
  const Dataset iris = ReadBuiltinCache(data_dir, "iris");
  ASSERT_EQ(iris.num_samples(), 3);
  EXPECT_EQ(iris.num_classes, 3);
  EXPECT_EQ(iris.features(0, 2), 3.5);
  EXPECT_EQ(iris.targets[2], 2.0);
  const Dataset stored = ReadDatasetCache(cache, "iris");  // a valid cache now
  EXPECT_EQ(stored.targets, iris.targets);
  EXPECT_EQ(stored.features, iris.features);
}

}  // namespace
}  // namespace commsim
