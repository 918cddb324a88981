// Eigen's matrix products cut their operands into blocks sized from the CPU's cache sizes, which
// Eigen reads from the CPU at the first product; the blocks set the order of each sum, so the
// same product differs in its last bits between machines with other caches. FixEigenBlocking()
// sets the sizes Eigen plans with to fixed values, so every product (the least-squares optimum,
// the layered models' forward and backward passes) gives the same bits on every machine.
// Idempotent and thread-safe; call it before the first product (main() and the data objectives
// do). The L1 size matters most: 32 KiB and 48 KiB give different bits for a 500 x 1200 product.
#ifndef COMMSIM_MODELS_EIGEN_BLOCKING_H_
#define COMMSIM_MODELS_EIGEN_BLOCKING_H_

#include <cstddef>

namespace commsim {

// The cache sizes Eigen plans its product blocks with (bytes): a common server core's.
inline constexpr std::ptrdiff_t kEigenL1Bytes = 32 * 1024;
inline constexpr std::ptrdiff_t kEigenL2Bytes = 1024 * 1024;
inline constexpr std::ptrdiff_t kEigenL3Bytes = 16 * 1024 * 1024;

void FixEigenBlocking();

}  // namespace commsim

#endif  // COMMSIM_MODELS_EIGEN_BLOCKING_H_
