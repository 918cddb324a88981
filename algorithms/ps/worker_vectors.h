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

#include "compression/compressors/compressor.h"

namespace commsim {

// ||x||^2 with Eigen's order of summation for packets of two doubles (Eigen 3.4's redux,
// LinearVectorizedTraversal, of cwiseAbs2(), which starts at element 0 whatever the address):
// lane sums of squares in two packets over groups of four, the second packet added to the
// first, then one more packet of two if left, the two lanes added, then the last element if d is
// odd -- for x handed over in order, in pieces of any size. kEigenOrder: this build's Eigen sums
// x.squaredNorm() so (else the sum is only close to it).
class PairedSquaredNorm {
 public:
  static constexpr bool kEigenOrder = Eigen::internal::packet_traits<double>::Vectorizable &&
                                      Eigen::internal::packet_traits<double>::size == 2;
  explicit PairedSquaredNorm(int64_t d) : end4_(d / 4 * 4), end2_(d / 2 * 2) {}
  // The next n elements of x: x[pos + k] = value(k) for k = 0, ..., n - 1 in turn (value may
  // write the element where it belongs). REQUIRES: at most d elements in all.
  template <class F>
  void Add(int64_t n, F&& value) {
    int64_t k = 0;
    for (; k < n && pos_ + k < end4_ && (pos_ + k) % 4 != 0; ++k) Lane(pos_ + k, value(k));
    double r0 = r_[0], r1 = r_[1], r2 = r_[2], r3 = r_[3];
    for (; k + 4 <= n && pos_ + k + 4 <= end4_; k += 4) {
      const double a = value(k), b = value(k + 1), c = value(k + 2), e = value(k + 3);
      r0 += a * a;
      r1 += b * b;
      r2 += c * c;
      r3 += e * e;
    }
    r_[0] = r0, r_[1] = r1, r_[2] = r2, r_[3] = r3;
    for (; k < n; ++k) Lane(pos_ + k, value(k));
    pos_ += n;
  }
  // The sum. REQUIRES: all d elements added.
  double Result() {
    Fold();
    return r_[0] + r_[1] + last_;
  }

 private:
  // Element j's square into its lane.
  void Lane(int64_t j, double v) {
    if (j < end4_) {
      r_[j % 4] += v * v;
      return;
    }
    Fold();
    if (j < end2_) {
      r_[j - end4_] += v * v;
    } else {
      last_ = v * v;
    }
  }
  // The second packet added to the first (once, after the groups of four).
  void Fold() {
    if (folded_) return;
    folded_ = true;
    r_[0] += r_[2];
    r_[1] += r_[3];
  }
  int64_t end4_, end2_, pos_ = 0;
  double r_[4] = {0.0, 0.0, 0.0, 0.0};
  double last_ = 0.0;  // an odd d's last square
  bool folded_ = false;
};

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
  // Worker w's chunk [offset, offset + n) of AddToSquaredNorm(w, x, subtract=true) for x = g
  // handed over in chunks: out[k] = g[k] - v_w[offset + k], its square added to `norm` (fed from
  // element 0 on in order: AddToSquaredNorm's value once every chunk is in).
  void SubtractChunk(int w, int64_t offset, const double* g, int64_t n, double* out,
                     PairedSquaredNorm& norm) const;
  // Momentum on a worker's gradient g, with v_w as the momentum buffer: v_w <- mu v_w + g, then
  // g <- v_w (heavy ball) or g + mu v_w (Nesterov), with v_w's new value in double.
  void Momentum(int w, Vec g, double mu, bool nesterov);
  // v_w[j] <- 0 wherever sent[j] != 0 (Deep Gradient Compression's factor masking).
  void ZeroWhere(int w, const ConstVec& sent);
  // ||v_w||^2 in double.
  double SquaredNorm(int w) const;
  // A double copy of v_w (tests and metrics).
  Eigen::VectorXd Get(int w) const;

  // Encodes x with q and sets v_w <- v_w + weight * Q(x) (the shift update of DIANA and DORE).
  // x is scratch: with float storage it holds Q(x) afterwards.
  Message EncodeAndAccumulate(const Compressor& q, int w, Vec x, double weight, Rng& rng);
  // The target of EncodeAndAccumulate's update v_w <- v_w + weight * Q(x) for an encoder that
  // delivers Q(x) itself (e.g. a chunk encoder). REQUIRES: !single() (float storage rounds the
  // update on store, which a DecodeTarget cannot).
  DecodeTarget AccumulateTarget(int w, double weight);
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
