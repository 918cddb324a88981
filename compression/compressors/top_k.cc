#include "compression/compressors/top_k.h"

#include <algorithm>
#include <cmath>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/coding/elias.h"
#include "compression/coding/golomb.h"
#include "compression/compressors/sparse_wire.h"
#include "compression/compressors/top_k_select.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {
constexpr std::string_view kIndexCodings[] = {"fixed", "golomb"};
}  // namespace

void TopKConfig::Describe(ParamVisitor& v) {
  DescribeKept(v);
  v.Text("index_coding", index_coding, kIndexCodings,
         "indices as fixed-width fields or golomb gaps");
}

TopK::TopK(const TopKConfig& config)
    : Compressor("top_k", /*unbiased=*/false),
      config_(config),
      golomb_(config.index_coding == "golomb") {}

int64_t TopK::KFor(int64_t dim) const { return config_.For(dim); }

std::vector<uint32_t> TopK::Select(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return SelectTopK(Name(), x, KFor(x.size())).idx;
}

Message TopK::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                         const DecodeTarget* target) const {
  COMMSIM_CHECK(x.size() <= int64_t{1} << 32, "top_k supports d < 2^32");
  const TopKSelection s = SelectTopK(Name(), x, KFor(x.size()));  // checks that x is finite
  BitWriter w;
  w.Reserve(96 * static_cast<int64_t>(s.idx.size()));  // 32-bit values, indices mostly shorter
  PutIndices(w, s.idx, x.size(), golomb_);
  return FinishSparseValues(w, Name(), s.idx, x, 1.0, target, s.values);
}

void TopK::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  GetSparseValues(r, GetIndices(r, KFor(d), d, golomb_), out);
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
  e.bits_formula =
      golomb_ ? "32k + golomb gaps (exact for this x)" : "32k + k*ceil(log2 d) (exact)";
  return e;
}

}  // namespace commsim
