#include "compression/coding/vector_source_code.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "compression/coding/elias.h"
#include "compression/coding/golomb.h"

namespace commsim {
namespace {

struct Symbol {
  int32_t value;
  int64_t count;
};

// Maps each distinct nonzero value to its rank in coding order: a dense table over [lo, hi]
// when the range is small (the usual case: few levels), else a std::map.
class RankTable {
 public:
  RankTable(int32_t lo, int32_t hi) : lo_(lo) {
    if (static_cast<int64_t>(hi) - lo <= (int64_t{1} << 20)) {
      dense_.assign(static_cast<size_t>(static_cast<int64_t>(hi) - lo + 1), 0);
    }
  }
  bool dense() const { return !dense_.empty(); }
  // Dense tables double as count arrays while the histogram is built.
  int64_t& Slot(int32_t v) {
    return dense() ? dense_[static_cast<size_t>(static_cast<int64_t>(v) - lo_)] : sparse_[v];
  }
  int64_t Get(int32_t v) const {
    return dense() ? dense_[static_cast<size_t>(static_cast<int64_t>(v) - lo_)]
                   : sparse_.find(v)->second;
  }
  // Every value with a nonzero slot, increasing.
  std::vector<Symbol> Entries() const {
    std::vector<Symbol> out;
    if (dense()) {
      for (size_t i = 0; i < dense_.size(); ++i) {
        if (dense_[i] > 0)
          out.push_back({static_cast<int32_t>(static_cast<int64_t>(i) + lo_), dense_[i]});
      }
    } else {
      for (const auto& [v, c] : sparse_) out.push_back({v, c});
    }
    return out;
  }

 private:
  int64_t lo_;
  std::vector<int64_t> dense_;
  std::map<int32_t, int64_t> sparse_;
};

// The distinct nonzero values with their counts, in coding order; `ranks` maps each to its index.
std::vector<Symbol> Histogram(std::span<const int32_t> values, RankTable& ranks) {
  for (int32_t v : values) ++ranks.Slot(v);
  std::vector<Symbol> out = ranks.Entries();
  std::sort(out.begin(), out.end(), [](const Symbol& a, const Symbol& b) {
    return a.count != b.count ? a.count > b.count : ZigZag(a.value) < ZigZag(b.value);
  });
  for (size_t i = 0; i < out.size(); ++i) ranks.Slot(out[i].value) = static_cast<int64_t>(i);
  return out;
}

// Merges the sorted list `add` into the sorted list `taken`.
void MergeInto(std::vector<uint32_t>& taken, const std::vector<uint32_t>& add,
               std::vector<uint32_t>& scratch) {
  scratch.resize(taken.size() + add.size());
  std::merge(taken.begin(), taken.end(), add.begin(), add.end(), scratch.begin());
  taken.swap(scratch);
}

// Per symbol, its positions as Golomb-coded gaps between ranks among the still-free positions.
// by_symbol holds each symbol's positions (increasing) at [start[i], start[i + 1]).
void PutPositions(BitWriter& w, int64_t d, const std::vector<Symbol>& symbols,
                  const std::vector<uint32_t>& by_symbol, const std::vector<size_t>& start) {
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

}  // namespace

void PutVectorSourceCode(BitWriter& w, std::span<const int32_t> z) {
  std::vector<uint32_t> positions;
  std::vector<int32_t> values;
  for (size_t i = 0; i < z.size(); ++i) {
    if (z[i] != 0) {
      positions.push_back(static_cast<uint32_t>(i));
      values.push_back(z[i]);
    }
  }
  PutSparseVectorSourceCode(w, static_cast<int64_t>(z.size()), positions, values);
}

void PutSparseVectorSourceCode(BitWriter& w, int64_t d, std::span<const uint32_t> positions,
                               std::span<const int32_t> values) {
  int32_t lo = 0, hi = 0;
  for (int32_t v : values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  RankTable ranks(lo, hi);
  const std::vector<Symbol> symbols = Histogram(values, ranks);
  PutEliasGamma(w, symbols.size() + 1);
  for (const Symbol& s : symbols) {
    PutEliasGamma(w, ZigZag(s.value) + 1);
    PutEliasGamma(w, static_cast<uint64_t>(s.count));
  }
  // Bucket the nonzero positions by symbol (counting sort), each bucket in increasing order.
  std::vector<size_t> start(symbols.size() + 1, 0);
  for (size_t i = 0; i < symbols.size(); ++i) {
    start[i + 1] = start[i] + static_cast<size_t>(symbols[i].count);
  }
  std::vector<uint32_t> by_symbol(start.back());
  std::vector<size_t> fill(start.begin(), start.end() - 1);
  for (size_t i = 0; i < values.size(); ++i) {
    by_symbol[fill[static_cast<size_t>(ranks.Get(values[i]))]++] = positions[i];
  }
  PutPositions(w, d, symbols, by_symbol, start);
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
    const uint64_t count = GetEliasGamma(r);
    // Compared unsigned: a count of 2^63 or more would be negative as int64_t.
    if (v == 0 || v < INT32_MIN || v > INT32_MAX || count > static_cast<uint64_t>(d - total)) {
      throw DecodeError(fmt::format("corrupted message: value {} with count {}", v, count));
    }
    s.count = static_cast<int64_t>(count);
    total += s.count;
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
