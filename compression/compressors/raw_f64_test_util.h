// The toy compressor of CONTRIBUTING.md's plug-in recipe, in its own test registry: every value as
// its 64 raw bits (exact, unbiased, 64d bits). It follows the recipe a shipped compressor follows
// (a config, one class, one registry line), so the contract suite (compressor_contract_test.cc)
// runs over it as over every shipped one, and the toy algorithms of the recipe send with it
// (algorithms/toy_rules_test_util.h).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_RAW_F64_TEST_UTIL_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_RAW_F64_TEST_UTIL_H_

#include <cmath>

#include "base/error.h"
#include "base/registry.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/wire.h"

namespace commsim::testing {

struct RawF64Config final : ConfigBase<RawF64Config> {
  void Describe(ParamVisitor&) override {}
};

class RawF64 final : public Compressor {
 public:
  explicit RawF64(const RawF64Config&) : Compressor("raw_f64", /*unbiased=*/true) {}
  COMMSIM_COMPRESSOR_MEMBERS;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng&,
                     const DecodeTarget* target) const override {
    RequireFinite(Name(), x);
    BitWriter w;
    w.Reserve(64 * x.size());
    for (Eigen::Index j = 0; j < x.size(); ++j) w.PutDouble(x[j]);
    Message m = w.Finish();
    DeliverDecoded(m, target);
    return m;
  }
};

// A word that is no finite double (a corrupted message) is a DecodeError, as the contract asks.
inline void RawF64::DecodeInto(const Message& message, const DecodeTarget& target) const {
  BitReader r(message);
  for (int64_t j = 0; j < target.size(); ++j) {
    const double v = r.GetDouble();
    if (!std::isfinite(v)) throw DecodeError("raw_f64: a value that is not finite");
    target.Put(j, v);
  }
  r.ExpectEnd();
}
inline double RawF64::ErrorFactor(int64_t) const { return 0.0; }
inline Expectation RawF64::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return {64.0 * static_cast<double>(x.size()), "64d (exact)", 0.0, static_cast<double>(x.size())};
}

// The recipe's registry: one line per toy compressor.
inline const Registry<Compressor>& ToyCompressorRegistry() {
  static const Registry<Compressor> registry = [] {
    Registry<Compressor> r;
    r.Add<RawF64, RawF64Config>("raw_f64", "every value as its 64 raw bits");
    return r;
  }();
  return registry;
}

}  // namespace commsim::testing

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_RAW_F64_TEST_UTIL_H_
