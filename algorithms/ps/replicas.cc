#include "algorithms/ps/replicas.h"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>

#include "base/check.h"

namespace commsim {

void Replicas::Init(int parties, const Eigen::Ref<const Eigen::VectorXd>& x0, bool verify,
                    std::string what) {
  what_ = std::move(what);
  copies_.clear();
  if (verify) copies_.assign(static_cast<size_t>(parties), x0);
}

Eigen::VectorXd& Replicas::Own(int w) {
  COMMSIM_CHECK(verify() && w >= 0 && w < static_cast<int>(copies_.size()), "replica {}", w);
  return copies_[static_cast<size_t>(w)];
}

void Replicas::Check(int w, const Eigen::VectorXd& reference) {
  COMMSIM_CHECK(verify() && w >= 0 && w < static_cast<int>(copies_.size()), "replica {}", w);
  Eigen::VectorXd& copy = copies_[static_cast<size_t>(w)];
  if (fault_.party == w) {
    double& v = copy[fault_.element];
    v = std::bit_cast<double>(std::bit_cast<uint64_t>(v) ^ 1);
    fault_ = Fault{};
  }
  COMMSIM_CHECK(copy.size() == reference.size(), "replica of size {}", copy.size());
  const size_t bytes = static_cast<size_t>(copy.size()) * sizeof(double);
  if (std::memcmp(copy.data(), reference.data(), bytes) == 0) return;
  Eigen::Index j = 0;
  while (std::bit_cast<uint64_t>(copy[j]) == std::bit_cast<uint64_t>(reference[j])) ++j;
  throw ReplicaMismatch(fmt::format(
      "verify_replicas: worker {}'s {} differs from the reference at element {} ({} vs {})", w,
      what_, j, copy[j], reference[j]));
}

}  // namespace commsim
