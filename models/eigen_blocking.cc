#include "models/eigen_blocking.h"

#include <Eigen/Core>
#include <mutex>

namespace commsim {

void FixEigenBlocking() {
  static std::once_flag once;
  std::call_once(once,
                 [] { Eigen::setCpuCacheSizes(kEigenL1Bytes, kEigenL2Bytes, kEigenL3Bytes); });
}

}  // namespace commsim
