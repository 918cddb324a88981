#include "algorithms/ps/worker_vectors.h"

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
