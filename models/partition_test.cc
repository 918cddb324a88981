#include "models/partition.h"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "base/error.h"
#include "models/test_util.h"

namespace commsim {
namespace {

using testing::RandomDataset;

void ExpectExactCover(const Shards& shards, int64_t n) {
  std::vector<int> seen(static_cast<size_t>(n), 0);
  for (const auto& shard : shards) {
    for (int64_t i : shard) {
      ASSERT_GE(i, 0);
      ASSERT_LT(i, n);
      ++seen[static_cast<size_t>(i)];
    }
  }
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(seen[static_cast<size_t>(i)], 1) << "sample " << i;
}

std::set<int> ClassesOf(const Dataset& d, const std::vector<int64_t>& shard) {
  std::set<int> classes;
  for (int64_t i : shard) classes.insert(d.label(i));
  return classes;
}

TEST(PartitionTest, IidCoversEverySampleOnceWithNearEqualShards) {
  const Dataset d = RandomDataset(2, 103, 0, 1);
  Rng rng(7);
  const Shards shards = IidPartitioner({}).Split(d, 4, rng);
  ASSERT_EQ(shards.size(), 4u);
  ExpectExactCover(shards, 103);
  for (const auto& s : shards) EXPECT_TRUE(s.size() == 25 || s.size() == 26);
}

TEST(PartitionTest, ByLabelGivesEachWorkerExactlyCClasses) {
  const Dataset d = RandomDataset(2, 1000, 10, 2);
  for (int c : {1, 2, 3, 10}) {
    ByLabelPartitionConfig config;
    config.classes_per_worker = c;
    Rng rng(8);
    const int workers = c == 1 ? 10 : 7;
    const Shards shards = ByLabelPartitioner(config).Split(d, workers, rng);
    ExpectExactCover(shards, 1000);
    for (const auto& s : shards) EXPECT_EQ(ClassesOf(d, s).size(), static_cast<size_t>(c));
  }
}

TEST(PartitionTest, ByLabelRejectsImpossibleRequests) {
  const Dataset d = RandomDataset(2, 100, 10, 2);
  ByLabelPartitionConfig config;
  config.classes_per_worker = 2;
  Rng rng(1);
  try {
    ByLabelPartitioner(config).Split(d, 4, rng);
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(),
                 "partition by_label: 4 workers x 2 classes_per_worker cover only 8 of the 10 "
                 "classes of 'random'; every sample must be assigned (raise classes_per_worker to "
                 "at least 3)");
  }
  config.classes_per_worker = 11;
  EXPECT_THROW(ByLabelPartitioner(config).Split(d, 4, rng), UserError);
  EXPECT_THROW(ByLabelPartitioner({}).Split(RandomDataset(2, 10, 0, 1), 2, rng), UserError);
}

TEST(PartitionTest, DirichletCoversOnceAndSkewsWithSmallAlpha) {
  const Dataset d = RandomDataset(2, 2000, 10, 3);
  auto max_class_share = [&](double alpha) {
    DirichletPartitionConfig config;
    config.alpha = alpha;
    Rng rng(9);
    const Shards shards = DirichletPartitioner(config).Split(d, 8, rng);
    ExpectExactCover(shards, 2000);
    double mean_share = 0.0;  // mean over workers of the share of their most common class
    for (const auto& s : shards) {
      EXPECT_FALSE(s.empty());
      std::vector<int> count(10, 0);
      for (int64_t i : s) ++count[static_cast<size_t>(d.label(i))];
      mean_share +=
          *std::max_element(count.begin(), count.end()) / static_cast<double>(s.size()) / 8;
    }
    return mean_share;
  };
  EXPECT_GT(max_class_share(0.05), 0.7);   // nearly one class per worker
  EXPECT_LT(max_class_share(100.0), 0.2);  // nearly iid (uniform would be 0.1)
}

TEST(PartitionTest, SameSeedSameSplitOtherSeedOtherSplit) {
  const Dataset d = RandomDataset(2, 500, 5, 4);
  DirichletPartitionConfig config;
  Rng a(11), b(11), c(12);
  const DirichletPartitioner p(config);
  const Shards first = p.Split(d, 6, a);
  EXPECT_EQ(first, p.Split(d, 6, b));
  EXPECT_NE(first, p.Split(d, 6, c));
  Rng e(11), f(11);
  EXPECT_EQ(IidPartitioner({}).Split(d, 3, e), IidPartitioner({}).Split(d, 3, f));
}

TEST(PartitionTest, GammaSamplerHasTheRightMean) {
  Rng rng(13);
  for (double shape : {0.3, 1.0, 4.5}) {
    double sum = 0.0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) sum += SampleGamma(shape, rng);
    EXPECT_NEAR(sum / n, shape, 4.0 * std::sqrt(shape / n)) << shape;  // 4 standard errors
  }
}

}  // namespace
}  // namespace commsim
