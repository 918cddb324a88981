#include "algorithms/compressors/top_k.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"
#include "algorithms/coding/elias.h"
#include "algorithms/coding/golomb.h"
#include "algorithms/compressors/sparse_wire.h"
#include "algorithms/compressors/wire.h"

namespace commsim {
namespace {
constexpr std::string_view kIndexCodings[] = {"fixed", "golomb"};
}  // namespace

void TopKConfig::Describe(ParamVisitor& v) {
  v.Int("k", k, Range::NonNegative(), "entries kept (0: use fraction)");
  v.Real("fraction", fraction, Range::OpenClosed(0, 1), "fraction of d kept when k is 0");
  v.Text("index_coding", index_coding, kIndexCodings, "indices as fixed-width fields or golomb gaps");
}

TopK::TopK(const TopKConfig& config) : config_(config), golomb_(config.index_coding == "golomb") {}

int64_t TopK::KFor(int64_t dim) const { return ResolveK(config_.k, config_.fraction, dim); }

std::vector<uint32_t> TopK::Select(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t k = KFor(d);
  std::vector<uint32_t> idx(static_cast<size_t>(d));
  std::iota(idx.begin(), idx.end(), 0u);
  if (k < d) {
    const double* p = x.data();
    std::nth_element(idx.begin(), idx.begin() + k, idx.end(), [p](uint32_t a, uint32_t b) {
      const double fa = std::abs(p[a]), fb = std::abs(p[b]);
      return fa > fb || (fa == fb && a < b);
    });
    idx.resize(static_cast<size_t>(k));
    std::sort(idx.begin(), idx.end());
  }
  return idx;
}

Message TopK::Encode(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/) const {
  RequireFinite(Name(), x);
  COMMSIM_CHECK(x.size() <= int64_t{1} << 32, "top_k supports d < 2^32");
  const std::vector<uint32_t> idx = Select(x);
  BitWriter w;
  PutIndices(w, idx, x.size(), golomb_);
  for (uint32_t i : idx) w.PutFloat(Fp32Nearest(Name(), x[i]));
  return w.Finish();
}

void TopK::Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const std::vector<uint32_t> idx = GetIndices(r, KFor(d), d, golomb_);
  out.setZero();
  for (uint32_t i : idx) {
    const float v = r.GetFloat();
    if (!std::isfinite(v)) throw DecodeError("corrupted message: non-finite value");
    out[i] = v;
  }
  r.ExpectEnd();
}

double TopK::ErrorFactor(int64_t dim) const {
  return 1.0 - static_cast<double>(KFor(dim)) / static_cast<double>(dim);
}

Expectation TopK::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t k = KFor(d);
  const std::vector<uint32_t> idx = Select(x);
  Expectation e;
  e.squared_error = x.squaredNorm();
  int64_t prev = -1;
  double index_bits = 0.0;
  const GolombCode code(GolombParameterFor(static_cast<double>(k) / static_cast<double>(d)));
  for (uint32_t i : idx) {
    const double q = static_cast<float>(x[i]);
    e.squared_error += (q - x[i]) * (q - x[i]) - x[i] * x[i];
    e.nonzeros += q != 0.0;
    index_bits += golomb_ ? static_cast<double>(code.Bits(static_cast<uint64_t>(i - prev - 1)))
                          : CeilLog2(static_cast<uint64_t>(d));
    prev = i;
  }
  e.squared_error = std::max(e.squared_error, 0.0);
  e.payload_bits = 32.0 * static_cast<double>(k) + index_bits;
  e.bits_formula = golomb_ ? "32k + golomb gaps (exact for this x)" : "32k + k*ceil(log2 d) (exact)";
  return e;
}

}  // namespace commsim
