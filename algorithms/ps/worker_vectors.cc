#include "algorithms/ps/worker_vectors.h"

#include <cstdint>

namespace commsim {

void WorkerVectors::Init(int workers, int64_t dim) {
  doubles_.clear();
  floats_.clear();
  if (single_) {
    floats_.assign(static_cast<size_t>(workers), Eigen::VectorXf::Zero(dim));
  } else {
    doubles_.assign(static_cast<size_t>(workers), Eigen::VectorXd::Zero(dim));
  }
}

void WorkerVectors::AddTo(int w, Vec x, bool subtract) const {
  if (single_) {
    const Eigen::VectorXf& v = floats_[static_cast<size_t>(w)];
    if (subtract) {
      x -= v.cast<double>();
    } else {
      x += v.cast<double>();
    }
    return;
  }
  const Eigen::VectorXd& v = doubles_[static_cast<size_t>(w)];
  if (subtract) {
    x -= v;
  } else {
    x += v;
  }
}

namespace {

// Eigen's x.squaredNorm() for packets of two doubles (Eigen 3.4's redux, LinearVectorizedTraversal,
// of cwiseAbs2(), which starts at element 0 whatever the address): lane sums of squares in two
// packets over groups of four, the second packet added to the first, then one more packet of two
// if left, the two lanes added, then the last element if d is odd. Here each element is x[j] -
// v[j] or x[j] + v[j] (x -= v or x += v, written back), computed as it is read.
template <class T>
double UpdateAndSquaredNorm(double* x, const T* v, int64_t d, bool subtract) {
  const auto next = [&](int64_t j) {
    x[j] = subtract ? x[j] - static_cast<double>(v[j]) : x[j] + static_cast<double>(v[j]);
    return x[j] * x[j];
  };
  if (d == 0) return 0.0;
  const int64_t end4 = d / 4 * 4, end2 = d / 2 * 2;
  if (end2 == 0) return next(0);  // too short for a packet
  double r00 = next(0), r01 = next(1);
  if (end2 > 2) {
    double r10 = next(2), r11 = next(3);
    for (int64_t j = 4; j < end4; j += 4) {
      r00 += next(j);
      r01 += next(j + 1);
      r10 += next(j + 2);
      r11 += next(j + 3);
    }
    r00 += r10;
    r01 += r11;
    if (end2 > end4) {
      r00 += next(end4);
      r01 += next(end4 + 1);
    }
  }
  double res = r00 + r01;
  if (end2 < d) res += next(end2);
  return res;
}

constexpr bool kEigenPairs = Eigen::internal::packet_traits<double>::Vectorizable &&
                             Eigen::internal::packet_traits<double>::size == 2;

}  // namespace

double WorkerVectors::AddToSquaredNorm(int w, Vec x, bool subtract) const {
  if (!kEigenPairs) {
    AddTo(w, x, subtract);
    return x.squaredNorm();
  }
  const auto i = static_cast<size_t>(w);
  return single_ ? UpdateAndSquaredNorm(x.data(), floats_[i].data(), x.size(), subtract)
                 : UpdateAndSquaredNorm(x.data(), doubles_[i].data(), x.size(), subtract);
}

double WorkerVectors::SquaredNorm(int w) const {
  if (single_) return floats_[static_cast<size_t>(w)].cast<double>().squaredNorm();
  return doubles_[static_cast<size_t>(w)].squaredNorm();
}

Eigen::VectorXd WorkerVectors::Get(int w) const {
  if (single_) return floats_[static_cast<size_t>(w)].cast<double>();
  return doubles_[static_cast<size_t>(w)];
}

Message WorkerVectors::EncodeAndAccumulate(const Compressor& q, int w, Vec x, double weight,
                                           Rng& rng) {
  if (!single_) {
    Eigen::VectorXd& v = doubles_[static_cast<size_t>(w)];
    return q.EncodeWithDecoded(x, rng, DecodeTarget(v, v, weight));
  }
  Message message = q.Encode(x, rng);
  q.Decode(message, x);  // x = Q(x)
  Eigen::VectorXf& v = floats_[static_cast<size_t>(w)];
  v = (v.cast<double>() + weight * x).cast<float>();
  return message;
}

Message WorkerVectors::EncodeAndKeep(const Compressor& q, int w, Vec x, double weight, Rng& rng) {
  if (!single_) {
    return q.EncodeWithDecoded(x, rng, DecodeTarget(doubles_[static_cast<size_t>(w)], x, weight));
  }
  Message message = q.Encode(x, rng);
  q.DecodeInto(message, DecodeTarget(x, x, weight));  // x = x + weight Q(x)
  floats_[static_cast<size_t>(w)] = x.cast<float>();
  return message;
}

}  // namespace commsim
