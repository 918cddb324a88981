#include "algorithms/ps/worker_vectors.h"

#include <cstdint>
#include <type_traits>

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

void WorkerVectors::Momentum(int w, Vec g, double mu, bool nesterov) {
  const auto step = [&](auto& v) {
    for (Eigen::Index j = 0; j < g.size(); ++j) {
      const double m = mu * static_cast<double>(v[j]) + g[j];
      v[j] = static_cast<typename std::decay_t<decltype(v)>::Scalar>(m);
      g[j] = nesterov ? g[j] + mu * m : m;
    }
  };
  if (single_) {
    step(floats_[static_cast<size_t>(w)]);
  } else {
    step(doubles_[static_cast<size_t>(w)]);
  }
}

void WorkerVectors::ZeroWhere(int w, const ConstVec& sent) {
  const auto mask = [&](auto& v) {
    for (Eigen::Index j = 0; j < sent.size(); ++j) {
      if (sent[j] != 0.0) v[j] = 0;
    }
  };
  if (single_) {
    mask(floats_[static_cast<size_t>(w)]);
  } else {
    mask(doubles_[static_cast<size_t>(w)]);
  }
}

namespace {

// x[j] -= v[j] or x[j] += v[j] for each j, returning x.squaredNorm() afterwards in Eigen's order.
template <class T>
double UpdateAndSquaredNorm(double* x, const T* v, int64_t d, bool subtract) {
  PairedSquaredNorm norm(d);
  norm.Add(d, [&](int64_t j) {
    x[j] = subtract ? x[j] - static_cast<double>(v[j]) : x[j] + static_cast<double>(v[j]);
    return x[j];
  });
  return norm.Result();
}

template <class T>
void SubtractInto(const double* g, const T* v, int64_t n, double* out, PairedSquaredNorm& norm) {
  norm.Add(n, [&](int64_t k) {
    out[k] = g[k] - static_cast<double>(v[k]);
    return out[k];
  });
}

}  // namespace

double WorkerVectors::AddToSquaredNorm(int w, Vec x, bool subtract) const {
  if (!PairedSquaredNorm::kEigenOrder) {
    AddTo(w, x, subtract);
    return x.squaredNorm();
  }
  const auto i = static_cast<size_t>(w);
  return single_ ? UpdateAndSquaredNorm(x.data(), floats_[i].data(), x.size(), subtract)
                 : UpdateAndSquaredNorm(x.data(), doubles_[i].data(), x.size(), subtract);
}

void WorkerVectors::SubtractChunk(int w, int64_t offset, const double* g, int64_t n, double* out,
                                  PairedSquaredNorm& norm) const {
  const auto i = static_cast<size_t>(w);
  if (single_) {
    SubtractInto(g, floats_[i].data() + offset, n, out, norm);
  } else {
    SubtractInto(g, doubles_[i].data() + offset, n, out, norm);
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
    return q.EncodeWithDecoded(x, rng, AccumulateTarget(w, weight));
  }
  Message message = q.Encode(x, rng);
  q.Decode(message, x);  // x = Q(x)
  Eigen::VectorXf& v = floats_[static_cast<size_t>(w)];
  v = (v.cast<double>() + weight * x).cast<float>();
  return message;
}

DecodeTarget WorkerVectors::AccumulateTarget(int w, double weight) {
  Eigen::VectorXd& v = doubles_[static_cast<size_t>(w)];
  return DecodeTarget(v, v, weight);
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
