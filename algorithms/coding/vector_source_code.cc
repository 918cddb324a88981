#include "algorithms/coding/vector_source_code.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "algorithms/coding/elias.h"
#include "algorithms/coding/golomb.h"

namespace commsim {
namespace {

struct Symbol {
  int32_t value;
  int64_t count;
};

// Nonzero values with their counts, in coding order.
std::vector<Symbol> Histogram(std::span<const int32_t> z) {
  std::map<int32_t, int64_t> counts;
  // Most vectors use few distinct values: count runs of a small dense window first.
  int32_t lo = 0, hi = 0;
  for (int32_t v : z) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  std::vector<Symbol> out;
  if (static_cast<int64_t>(hi) - lo <= (int64_t{1} << 20)) {
    std::vector<int64_t> dense(static_cast<size_t>(static_cast<int64_t>(hi) - lo + 1), 0);
    for (int32_t v : z) ++dense[static_cast<size_t>(v - lo)];
    for (size_t i = 0; i < dense.size(); ++i) {
      const int32_t v = static_cast<int32_t>(static_cast<int64_t>(i) + lo);
      if (v != 0 && dense[i] > 0) out.push_back({v, dense[i]});
    }
  } else {
    for (int32_t v : z) {
      if (v != 0) ++counts[v];
    }
    for (const auto& [v, c] : counts) out.push_back({v, c});
  }
  std::sort(out.begin(), out.end(), [](const Symbol& a, const Symbol& b) {
    return a.count != b.count ? a.count > b.count : ZigZag(a.value) < ZigZag(b.value);
  });
  return out;
}

// Merges the sorted list `add` into the sorted list `taken`.
void MergeInto(std::vector<uint32_t>& taken, const std::vector<uint32_t>& add,
               std::vector<uint32_t>& scratch) {
  scratch.resize(taken.size() + add.size());
  std::merge(taken.begin(), taken.end(), add.begin(), add.end(), scratch.begin());
  taken.swap(scratch);
}

}  // namespace

void PutVectorSourceCode(BitWriter& w, std::span<const int32_t> z) {
  const int64_t d = static_cast<int64_t>(z.size());
  const std::vector<Symbol> symbols = Histogram(z);
  PutEliasGamma(w, symbols.size() + 1);
  for (const Symbol& s : symbols) {
    PutEliasGamma(w, ZigZag(s.value) + 1);
    PutEliasGamma(w, static_cast<uint64_t>(s.count));
  }
  // Bucket the nonzero positions by symbol (counting sort), each bucket in increasing order.
  std::map<int32_t, size_t> rank_of;
  std::vector<size_t> start(symbols.size() + 1, 0);
  for (size_t i = 0; i < symbols.size(); ++i) {
    rank_of[symbols[i].value] = i;
    start[i + 1] = start[i] + static_cast<size_t>(symbols[i].count);
  }
  std::vector<uint32_t> by_symbol(start.back());
  {
    std::vector<size_t> fill(start.begin(), start.end() - 1);
    int32_t last_value = 0;
    size_t last_rank = 0;
    for (int64_t i = 0; i < d; ++i) {
      if (z[i] == 0) continue;
      if (z[i] != last_value) {
        last_value = z[i];
        last_rank = rank_of.find(z[i])->second;
      }
      by_symbol[fill[last_rank]++] = static_cast<uint32_t>(i);
    }
  }
  std::vector<uint32_t> taken, positions, scratch;
  int64_t free = d;
  for (size_t si = 0; si < symbols.size(); ++si) {
    const Symbol& s = symbols[si];
    positions.assign(by_symbol.begin() + static_cast<std::ptrdiff_t>(start[si]),
                     by_symbol.begin() + static_cast<std::ptrdiff_t>(start[si + 1]));
    if (s.count < free) {
      const GolombCode code(
          GolombParameterFor(static_cast<double>(s.count) / static_cast<double>(free)));
      size_t t = 0;
      int64_t prev_rank = -1;
      for (uint32_t pos : positions) {
        while (t < taken.size() && taken[t] < pos) ++t;
        const int64_t rank = static_cast<int64_t>(pos) - static_cast<int64_t>(t);
        code.Put(w, static_cast<uint64_t>(rank - prev_rank - 1));
        prev_rank = rank;
      }
    }
    if (si + 1 < symbols.size()) MergeInto(taken, positions, scratch);
    free -= s.count;
  }
}

void GetVectorSourceCode(BitReader& r, std::span<int32_t> z) {
  const int64_t d = static_cast<int64_t>(z.size());
  const uint64_t k = GetEliasGamma(r) - 1;
  if (k > static_cast<uint64_t>(d)) {
    throw DecodeError(fmt::format("corrupted message: {} distinct values for d = {}", k, d));
  }
  std::vector<Symbol> symbols(k);
  int64_t total = 0;
  for (Symbol& s : symbols) {
    const int64_t v = UnZigZag(GetEliasGamma(r) - 1);
    s.count = static_cast<int64_t>(GetEliasGamma(r));
    total += s.count;
    if (v == 0 || v < INT32_MIN || v > INT32_MAX || s.count > d || total > d) {
      throw DecodeError(fmt::format("corrupted message: value {} with count {}", v, s.count));
    }
    s.value = static_cast<int32_t>(v);
  }
  std::fill(z.begin(), z.end(), 0);
  std::vector<uint32_t> taken, positions, scratch;
  int64_t free = d;
  for (const Symbol& s : symbols) {
    positions.clear();
    if (s.count == free) {
      // Every free position: walk the gaps of `taken`.
      size_t t = 0;
      for (int64_t i = 0; i < d; ++i) {
        if (t < taken.size() && taken[t] == i) {
          ++t;
        } else {
          positions.push_back(static_cast<uint32_t>(i));
        }
      }
    } else {
      const GolombCode code(
          GolombParameterFor(static_cast<double>(s.count) / static_cast<double>(free)));
      size_t t = 0;
      int64_t rank = -1;
      for (int64_t j = 0; j < s.count; ++j) {
        const int64_t max_gap = free - (s.count - j) - rank - 1;
        rank += static_cast<int64_t>(code.Get(r, static_cast<uint64_t>(max_gap))) + 1;
        // Position with `rank` free positions before it.
        int64_t pos = rank + static_cast<int64_t>(t);
        while (t < taken.size() && taken[t] <= pos) {
          ++t;
          pos = rank + static_cast<int64_t>(t);
        }
        positions.push_back(static_cast<uint32_t>(pos));
      }
    }
    for (uint32_t p : positions) z[p] = s.value;
    MergeInto(taken, positions, scratch);
    free -= s.count;
  }
}

double EmpiricalEntropyBits(std::span<const int32_t> z) {
  std::map<int32_t, double> counts;
  for (int32_t v : z) counts[v] += 1.0;
  std::vector<double> c;
  for (const auto& [v, n] : counts) c.push_back(n);
  const double n = static_cast<double>(z.size());
  double bits = 0.0;
  for (double x : c) bits += x * std::log2(n / x);
  return bits;
}

}  // namespace commsim
