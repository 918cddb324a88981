#include "compression/compressors/identity_kernels.h"

#include <cstring>

#include "base/finite.h"
#include "base/target_clones.h"

namespace commsim::identity_kernels {
namespace {

// Value k of the wire's Value type (float or double) at bytes, as a double.
template <class Value>
inline double At(const unsigned char* bytes, int64_t k) {
  Value v;
  std::memcpy(&v, bytes + sizeof(Value) * k, sizeof v);  // a vector load once vectorised
  return static_cast<double>(v);
}

template <class Value>
inline uint64_t AddWeighted(const unsigned char* bytes, int64_t n, double weight, double* o) {
  uint64_t flags = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double v = At<Value>(bytes, k);
    flags |= NonFiniteFlag(v);
    o[k] += weight * v;
  }
  return flags;
}

}  // namespace

COMMSIM_TARGET_CLONES
uint64_t AddWeighted32(const unsigned char* bytes, int64_t n, double weight, double* o) {
  return AddWeighted<float>(bytes, n, weight, o);
}

COMMSIM_TARGET_CLONES
uint64_t AddWeighted64(const unsigned char* bytes, int64_t n, double weight, double* o) {
  return AddWeighted<double>(bytes, n, weight, o);
}

}  // namespace commsim::identity_kernels
