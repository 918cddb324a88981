#include "compression/compressors/sparse_wire.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "base/rng.h"
#include "compression/coding/elias.h"
#include "compression/coding/golomb.h"
#include "compression/compressors/wire.h"

namespace commsim {

void KeptCount::DescribeKept(ParamVisitor& v) {
  v.Int("k", k, Range::NonNegative(), "entries kept (0: use fraction)");
  v.Real("fraction", fraction, Range::OpenClosed(0, 1), "fraction of d kept when k is 0");
}

int64_t KeptCount::For(int64_t d) const { return ResolveK(k, fraction, d); }

Message FinishSparseValues(BitWriter& w, std::string_view name, std::span<const uint32_t> idx,
                           const Eigen::Ref<const Eigen::VectorXd>& x, double factor,
                           const DecodeTarget* target, std::span<const double> values) {
  int64_t next = 0;  // the first element not yet delivered to the target
  for (size_t j = 0; j < idx.size(); ++j) {
    const uint32_t i = idx[j];
    const float v = Fp32Nearest(name, values.empty() ? x[i] : values[j]);
    w.PutFloat(v);
    if (target != nullptr) {
      target->PutZeros(next, i);
      target->Put(i, factor * static_cast<double>(v));
      next = static_cast<int64_t>(i) + 1;
    }
  }
  if (target != nullptr) target->PutZeros(next, x.size());
  Message m = w.Finish();
  m.nonzeros = static_cast<int64_t>(idx.size());  // for the codec time model
  return m;
}

void PutIndices(BitWriter& w, std::span<const uint32_t> idx, int64_t d, bool golomb) {
  if (!golomb) {
    const int bits = CeilLog2(static_cast<uint64_t>(d));
    for (uint32_t i : idx) w.Put(i, bits);
    return;
  }
  if (idx.empty()) return;
  const GolombCode code(
      GolombParameterFor(static_cast<double>(idx.size()) / static_cast<double>(d)));
  int64_t prev = -1;
  for (uint32_t i : idx) {
    code.Put(w, static_cast<uint64_t>(i - prev - 1));
    prev = i;
  }
}

void GetSparseValues(BitReader& r, const std::vector<uint32_t>& idx, const DecodeTarget& out) {
  int64_t next = 0;
  for (const uint32_t i : idx) {
    const float v = r.GetFloat();
    if (!std::isfinite(v)) throw DecodeError("corrupted message: non-finite value");
    out.PutZeros(next, i);
    out.Put(i, v);
    next = i + 1;
  }
  out.PutZeros(next, out.size());
  r.ExpectEnd();
}

std::vector<uint32_t> GetIndices(BitReader& r, int64_t k, int64_t d, bool golomb) {
  std::vector<uint32_t> idx(static_cast<size_t>(k));
  int64_t prev = -1;
  if (!golomb) {
    const int bits = CeilLog2(static_cast<uint64_t>(d));
    for (int64_t j = 0; j < k; ++j) {
      const int64_t i = static_cast<int64_t>(r.Get(bits));
      if (i <= prev || i >= d) {
        throw DecodeError(fmt::format("corrupted message: index {} after {} (d = {})", i, prev, d));
      }
      idx[j] = static_cast<uint32_t>(i);
      prev = i;
    }
    return idx;
  }
  if (k == 0) return idx;
  const GolombCode code(GolombParameterFor(static_cast<double>(k) / static_cast<double>(d)));
  for (int64_t j = 0; j < k; ++j) {
    // The remaining k - j - 1 indices must still fit after this one.
    const int64_t max_gap = d - (k - j) - prev - 1;
    if (max_gap < 0) throw DecodeError("corrupted message: index gaps overflow the dimension");
    prev += static_cast<int64_t>(code.Get(r, static_cast<uint64_t>(max_gap))) + 1;
    idx[j] = static_cast<uint32_t>(prev);
  }
  return idx;
}

std::vector<uint32_t> SampleIndices(uint64_t seed, int64_t k, int64_t d) {
  Rng rng(seed);
  std::vector<uint64_t> taken(static_cast<size_t>((d + 63) / 64), 0);
  auto test_and_set = [&](uint64_t i) {
    uint64_t& word = taken[i >> 6];
    const uint64_t bit = uint64_t{1} << (i & 63);
    const bool was = (word & bit) != 0;
    word |= bit;
    return was;
  };
  for (int64_t j = d - k; j < d; ++j) {
    const uint64_t t = rng.UniformInt(static_cast<uint64_t>(j) + 1);
    if (test_and_set(t)) test_and_set(static_cast<uint64_t>(j));
  }
  std::vector<uint32_t> idx;
  idx.reserve(static_cast<size_t>(k));
  for (size_t w = 0; w < taken.size(); ++w) {
    for (uint64_t bits = taken[w]; bits != 0; bits &= bits - 1) {
      idx.push_back(static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(bits))));
    }
  }
  return idx;
}

}  // namespace commsim
