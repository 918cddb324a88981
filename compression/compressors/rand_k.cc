#include "compression/compressors/rand_k.h"

#include <cmath>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/sparse_wire.h"
#include "compression/compressors/wire.h"

namespace commsim {

void RandKConfig::Describe(ParamVisitor& v) {
  DescribeKept(v);
  v.Bool("scale", scale, "multiply kept values by d/k (unbiased) instead of keeping them as is");
}

int64_t RandK::KFor(int64_t dim) const { return config_.For(dim); }

Message RandK::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                          const DecodeTarget* target) const {
  RequireFinite(Name(), x);
  COMMSIM_CHECK(x.size() <= int64_t{1} << 32, "rand_k supports d < 2^32");
  const int64_t d = x.size();
  const uint64_t seed = rng.NextU64();
  const std::vector<uint32_t> idx = SampleIndices(seed, KFor(d), d);
  const double factor = Factor(d, static_cast<int64_t>(idx.size()));
  BitWriter w;
  w.Reserve(64 + 32 * static_cast<int64_t>(idx.size()));
  w.Put(seed, 64);
  return FinishSparseValues(w, Name(), idx, x, factor, target);
}

void RandK::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const int64_t k = KFor(d);
  const uint64_t seed = r.Get(64);
  if (r.remaining() != 32 * k) {
    throw DecodeError("corrupted message: rand_k payload is not 64 + 32k bits");
  }
  const std::vector<uint32_t> idx = SampleIndices(seed, k, d);
  const double factor = Factor(d, k);
  // A plain decode zeroes the vector once; an update computes base + weight * 0 between the
  // kept entries itself (out may be base).
  const bool plain = out.plain();
  if (plain) out.PutZeros(0, d);
  int64_t next = 0;  // the first element not yet written
  for (uint32_t i : idx) {
    const float v = r.GetFloat();
    if (!std::isfinite(v)) throw DecodeError("corrupted message: non-finite value");
    if (!plain) out.PutZeros(next, i);
    out.Put(i, factor * static_cast<double>(v));
    next = static_cast<int64_t>(i) + 1;
  }
  if (!plain) out.PutZeros(next, d);
  r.ExpectEnd();
}

double RandK::Factor(int64_t d, int64_t k) const {
  return config_.scale ? static_cast<double>(d) / static_cast<double>(k) : 1.0;
}

double RandK::ErrorFactor(int64_t dim) const {
  const double ratio = static_cast<double>(KFor(dim)) / static_cast<double>(dim);
  return config_.scale ? 1.0 / ratio - 1.0 : 1.0 - ratio;
}

Expectation RandK::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const double k = static_cast<double>(KFor(d));
  Expectation e;
  e.payload_bits = 64.0 + 32.0 * k;
  e.bits_formula = "64 + 32k (exact)";
  e.squared_error = ErrorFactor(d) * x.squaredNorm();
  e.nonzeros = k / static_cast<double>(d) * static_cast<double>((x.array() != 0.0).count());
  return e;
}

}  // namespace commsim
