#include "models/problem_data.h"

#include "base/check.h"

namespace commsim {

ProblemData MakeProblemData(const Dataset& train, Dataset test, const Shards& shards) {
  std::vector<int64_t> order;
  order.reserve(static_cast<size_t>(train.num_samples()));
  ProblemData data;
  data.offsets.push_back(0);
  for (const std::vector<int64_t>& shard : shards) {
    order.insert(order.end(), shard.begin(), shard.end());
    data.offsets.push_back(static_cast<int64_t>(order.size()));
  }
  COMMSIM_CHECK(static_cast<int64_t>(order.size()) == train.num_samples(),
                "shards hold {} samples, training set {}", order.size(), train.num_samples());
  data.train = Subset(train, order);
  data.test = std::move(test);
  return data;
}

}  // namespace commsim
