#include "compression/compressors/compressor.h"

#include <algorithm>

#include "base/check.h"

namespace commsim {

void ChunkEncoder::PutAt(int64_t begin, const double* /*values*/, int64_t n) {
  COMMSIM_CHECK(false, "PutAt({}, {}) on an encoder that takes its values in order", begin, n);
}

DecodeTarget::DecodeTarget(Eigen::Ref<Eigen::VectorXd> out,
                           const Eigen::Ref<const Eigen::VectorXd>& base, double weight)
    : out_(out.data()), base_(base.data()), weight_(weight), size_(out.size()) {
  COMMSIM_CHECK(base.size() == out.size(), "decode target: base of size {}, out of size {}",
                base.size(), out.size());
}

void DecodeTarget::PutZeros(int64_t begin, int64_t end) const {
  if (base_ == nullptr) {
    std::fill(out_ + begin, out_ + end, 0.0);
    return;
  }
  // base + weight * 0 (not a plain copy: -0 + 0 is +0, and the bits must match the buffer path).
  const double zero_term = weight_ * 0.0;
  for (int64_t j = begin; j < end; ++j) out_[j] = base_[j] + zero_term;
}

void DecodeTarget::PutAll(const Eigen::Ref<const Eigen::VectorXd>& v) const {
  const double* p = v.data();
  if (base_ == nullptr) {
    std::copy(p, p + size_, out_);
    return;
  }
  for (int64_t j = 0; j < size_; ++j) out_[j] = base_[j] + weight_ * p[j];
}

DecodeTarget DecodeTarget::Segment(int64_t offset, int64_t size) const {
  COMMSIM_CHECK(offset >= 0 && offset + size <= size_, "segment [{}, {}) of {}", offset,
                offset + size, size_);
  return DecodeTarget(out_ + offset, base_ == nullptr ? nullptr : base_ + offset, weight_, size);
}

Message Compressor::EncodeWithDecoded(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                                      const DecodeTarget& target) const {
  COMMSIM_CHECK(target.size() == x.size(), "decode target of size {} for d = {}", target.size(),
                x.size());
  return EncodeImpl(x, rng, &target);
}

}  // namespace commsim
