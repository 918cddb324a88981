// Branch-free finiteness flags for loops that check every element on the way (so the loop still
// vectorises): OR the flags of a range and test the top bit once.
#ifndef COMMSIM_BASE_FINITE_H_
#define COMMSIM_BASE_FINITE_H_

#include <bit>
#include <cstdint>

namespace commsim {

// Bit 63 of the result is set exactly when v is NaN or Inf (its exponent bits are all ones: adding
// one to the exponent field carries into the sign position). Integer and/add only.
inline uint64_t NonFiniteFlag(double v) {
  return (std::bit_cast<uint64_t>(v) & 0x7FF0000000000000ULL) + 0x0010000000000000ULL;
}
// The same for the bits of a float: bit 31 set exactly when it is NaN or Inf.
inline uint32_t NonFiniteFlag32(uint32_t float_bits) {
  return (float_bits & 0x7F800000U) + 0x00800000U;
}

}  // namespace commsim

#endif  // COMMSIM_BASE_FINITE_H_
