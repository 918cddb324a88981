// WorkerVectors: one state vector per worker -- DIANA's and DORE's shifts h_i, MEM-SGD's and
// DoubleSqueeze's error memories -- stored in double, or in float with the rules'
// `precision: "float32"` option (half the memory of the state that grows with the workers).
//
// Precision contract. float64: every operation is exactly the double arithmetic the rules did on
// plain Eigen::VectorXd (results unchanged bit for bit). float32: each update is computed in
// double from the stored float values and rounded to the nearest float once, on store; the values
// a worker sends are still computed in double (only the state between rounds is rounded).
// The float path costs one extra decode pass per message (the encoder's fused decode writes
// doubles only), so float32 trades a little time for memory.
#ifndef COMMSIM_ALGORITHMS_PS_WORKER_VECTORS_H_
#define COMMSIM_ALGORITHMS_PS_WORKER_VECTORS_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "algorithms/compressors/compressor.h"

namespace commsim {

class WorkerVectors {
 public:
  using Vec = Eigen::Ref<Eigen::VectorXd>;
  using ConstVec = Eigen::Ref<const Eigen::VectorXd>;

  // Stores in float when `single` (the rules' PsStateKeys::single(), ps_keys.h).
  explicit WorkerVectors(bool single) : single_(single) {}
  // `workers` zero vectors of dimension `dim`.
  void Init(int workers, int64_t dim);
  bool single() const { return single_; }
  int size() const { return static_cast<int>(single_ ? floats_.size() : doubles_.size()); }

  // x -= v_w (subtract) or x += v_w, in double.
  void AddTo(int w, Vec x, bool subtract) const;
  // AddTo(w, x, subtract), returning x.squaredNorm() afterwards (the same bits: Eigen's order of
  // summation) from the same pass over x where this build's Eigen sums in packets of two doubles.
  double AddToSquaredNorm(int w, Vec x, bool subtract) const;
  // ||v_w||^2 in double.
  double SquaredNorm(int w) const;
  // A double copy of v_w (tests and metrics).
  Eigen::VectorXd Get(int w) const;

  // Encodes x with q and sets v_w <- v_w + weight * Q(x) (the shift update of DIANA and DORE).
  // x is scratch: with float storage it holds Q(x) afterwards.
  Message EncodeAndAccumulate(const Compressor& q, int w, Vec x, double weight, Rng& rng);
  // Encodes x with q and sets v_w <- x + weight * Q(x) (error feedback: weight -1 keeps the
  // residual x - Q(x)). x is scratch: with float storage it holds that residual afterwards.
  Message EncodeAndKeep(const Compressor& q, int w, Vec x, double weight, Rng& rng);

 private:
  bool single_;
  std::vector<Eigen::VectorXd> doubles_;
  std::vector<Eigen::VectorXf> floats_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_WORKER_VECTORS_H_
