#include "models/partition.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/check.h"
#include "base/error.h"

namespace commsim {
namespace {

std::vector<std::vector<int64_t>> ShuffledByClass(const Dataset& train, std::string_view who,
                                                  Rng& rng) {
  if (!train.is_classification()) {
    throw UserError(
        fmt::format("partition {}: needs a classification data set, '{}' is a "
                    "regression set (use iid)",
                    who, train.name));
  }
  std::vector<std::vector<int64_t>> by_class(static_cast<size_t>(train.num_classes));
  for (int64_t i = 0; i < train.num_samples(); ++i) {
    by_class[static_cast<size_t>(train.label(i))].push_back(i);
  }
  for (std::vector<int64_t>& c : by_class) std::shuffle(c.begin(), c.end(), rng);
  return by_class;
}

}  // namespace

double SampleGamma(double shape, Rng& rng) {
  COMMSIM_CHECK(shape > 0.0, "gamma shape {}", shape);
  if (shape < 1.0) {
    const double u = 1.0 - rng.Uniform();  // in (0, 1]
    return SampleGamma(shape + 1.0, rng) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    const double x = rng.Normal();
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = rng.Uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

Shards SplitIid(const IidPartitionConfig& /*config*/, const Dataset& train, int workers, Rng& rng) {
  COMMSIM_CHECK(workers >= 1, "workers {}", workers);
  std::vector<int64_t> order(static_cast<size_t>(train.num_samples()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  Shards shards(static_cast<size_t>(workers));
  const auto n = static_cast<int64_t>(order.size());
  for (int w = 0; w < workers; ++w) {
    const int64_t begin = n * w / workers;
    const int64_t end = n * (w + 1) / workers;
    shards[static_cast<size_t>(w)].assign(order.begin() + begin, order.begin() + end);
  }
  return shards;
}

Shards SplitByLabel(const ByLabelPartitionConfig& config, const Dataset& train, int workers,
                    Rng& rng) {
  COMMSIM_CHECK(workers >= 1, "workers {}", workers);
  std::vector<std::vector<int64_t>> by_class = ShuffledByClass(train, "by_label", rng);
  const int classes = train.num_classes;
  const auto c = static_cast<int>(config.classes_per_worker);
  if (c > classes) {
    throw UserError(
        fmt::format("partition by_label: classes_per_worker = {} exceeds the {} "
                    "classes of '{}'",
                    c, classes, train.name));
  }
  if (static_cast<int64_t>(workers) * c < classes) {
    throw UserError(fmt::format(
        "partition by_label: {} workers x {} classes_per_worker cover only {} of the {} classes "
        "of '{}'; every sample must be assigned (raise classes_per_worker to at least {})",
        workers, c, workers * c, classes, train.name, (classes + workers - 1) / workers));
  }
  std::vector<int> class_order(static_cast<size_t>(classes));
  std::iota(class_order.begin(), class_order.end(), 0);
  std::shuffle(class_order.begin(), class_order.end(), rng);
  // Deal the shuffled classes round-robin: worker w holds c consecutive (cyclic) entries, which
  // are distinct because c <= classes.
  std::vector<std::vector<int>> holders(static_cast<size_t>(classes));
  for (int w = 0; w < workers; ++w) {
    for (int k = 0; k < c; ++k) {
      const int cls = class_order[static_cast<size_t>((w * c + k) % classes)];
      holders[static_cast<size_t>(cls)].push_back(w);
    }
  }
  Shards shards(static_cast<size_t>(workers));
  for (int cls = 0; cls < classes; ++cls) {
    const std::vector<int64_t>& members = by_class[static_cast<size_t>(cls)];
    const std::vector<int>& h = holders[static_cast<size_t>(cls)];
    const auto n = static_cast<int64_t>(members.size());
    const auto m = static_cast<int64_t>(h.size());
    for (int64_t j = 0; j < m; ++j) {
      std::vector<int64_t>& shard = shards[static_cast<size_t>(h[static_cast<size_t>(j)])];
      shard.insert(shard.end(), members.begin() + n * j / m, members.begin() + n * (j + 1) / m);
    }
  }
  return shards;
}

Shards SplitDirichlet(const DirichletPartitionConfig& config, const Dataset& train, int workers,
                      Rng& rng) {
  COMMSIM_CHECK(workers >= 1, "workers {}", workers);
  std::vector<std::vector<int64_t>> by_class = ShuffledByClass(train, "dirichlet", rng);
  Shards shards(static_cast<size_t>(workers));
  std::vector<double> share(static_cast<size_t>(workers));
  for (const std::vector<int64_t>& members : by_class) {
    double total = 0.0;
    for (double& s : share) total += (s = SampleGamma(config.alpha, rng));
    if (!(total > 0.0)) {  // every variate underflowed (tiny alpha): one worker takes the class
      std::fill(share.begin(), share.end(), 0.0);
      share[rng.UniformInt(static_cast<uint64_t>(workers))] = total = 1.0;
    }
    const auto n = static_cast<int64_t>(members.size());
    double cumulative = 0.0;
    int64_t begin = 0;
    for (int w = 0; w < workers; ++w) {
      cumulative += share[static_cast<size_t>(w)];
      const int64_t end =
          w + 1 == workers
              ? n
              : std::min<int64_t>(n, std::llround(cumulative / total * static_cast<double>(n)));
      std::vector<int64_t>& shard = shards[static_cast<size_t>(w)];
      shard.insert(shard.end(), members.begin() + begin, members.begin() + std::max(begin, end));
      begin = std::max(begin, end);
    }
  }
  // Nobody may be left without data: an empty worker takes the last sample of the largest shard.
  for (std::vector<int64_t>& shard : shards) {
    if (!shard.empty()) continue;
    auto largest = std::max_element(shards.begin(), shards.end(), [](const auto& a, const auto& b) {
      return a.size() < b.size();
    });
    if (largest->size() < 2) break;  // fewer samples than workers; BuildProblem reports it
    shard.push_back(largest->back());
    largest->pop_back();
  }
  return shards;
}

}  // namespace commsim
