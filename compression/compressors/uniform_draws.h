// Where a stochastic compressor's per-element uniforms come from: the config key "rng".
//
//   "stream"  (default) the caller's Rng (xoshiro256**), one 53-bit draw per element in element
//             order: the draws every release so far made, so shipped results stay byte-identical.
//             Long messages compute them in vectorised lanes (stream_lanes.h), with the same
//             values and the same final Rng state.
//   "counter" a CounterRng (base/counter_rng.h) keyed by one NextU64 of the caller's Rng per
//             message: element j's draw is a 32-bit Philox4x32-10 output that depends only on
//             (key, j), generated 256 elements at a time in vectorised code. Faster; the messages
//             differ from "stream" (a different random sequence), not in distribution beyond the
//             32-bit resolution: each Bernoulli probability is exact to within 2^-32.
//
// The quantizer loops are written once over a draw source, visited in chunks of at most
// kDrawChunk elements:
//   for each chunk [first, first + m):  src.Prepare(first, m);  then src.Next(k) for k = 0..m-1
// Next returns an integer draw in [0, Source::kOne); kOne is a power of two, so u = draw / kOne is
// an exact uniform in [0, 1) and `draw < p * kOne` is Bernoulli(p) without rounding.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_UNIFORM_DRAWS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_UNIFORM_DRAWS_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "base/counter_rng.h"
#include "base/params.h"
#include "base/rng.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/philox_lanes.h"
#include "compression/compressors/stream_lanes.h"

namespace commsim {

inline constexpr int64_t kDrawChunk = CounterRng::kChunk;

// The "rng" key of a stochastic compressor's config (one description for all of them).
void DescribeRngKey(ParamVisitor& v, std::string& rng);
// True for "counter". REQUIRES: rng passed DescribeRngKey's choices.
bool UsesCounterRng(const std::string& rng);

// "stream": the caller's Rng, one draw per Next in call order (k is ignored). Holds a copy of
// the Rng; rng() is the advanced state to hand back to the caller.
class StreamDraws {
 public:
  static constexpr double kOne = 0x1p53;
  explicit StreamDraws(const Rng& rng) : rng_(rng) {}
  void Prepare(int64_t /*first*/, int64_t /*m*/) {}
  uint64_t Next(int64_t /*k*/) { return rng_.NextU64() >> 11; }
  const Rng& rng() const { return rng_; }

 private:
  Rng rng_;
};

// "counter": the draws of chunk [first, first + m) computed up front; Next(k) is element first + k.
class CounterDraws {
 public:
  static constexpr double kOne = 0x1p32;
  explicit CounterDraws(uint64_t key) : key_(key) {}
  // REQUIRES: 0 < m <= kDrawChunk.
  void Prepare(int64_t first, int64_t m) {
    philox_lanes::FillWindow(key_, static_cast<uint64_t>(first), m, buf_);
  }
  uint64_t Next(int64_t k) const { return buf_[k]; }
  // The prepared chunk's draws (for the vectorised kernels, counter_kernels.h).
  const uint32_t* data() const { return buf_; }

 private:
  uint64_t key_;  // CounterRng(key_)'s draws, computed by philox_lanes.h
  alignas(64) uint32_t buf_[kDrawChunk];
};

// The sources whose chunk of draws sits in memory (data()), for the vectorised kernels of
// counter_kernels.h.
template <class Src>
concept KernelDraws = std::is_same_v<Src, CounterDraws> || std::is_same_v<Src, LaneDraws>;

// A loop's working copy of a draw source: a stream source is copied, so that its state lives in
// registers rather than behind a reference the loop's stores might alias, and Commit hands the
// advanced state back; a counter source is used in place. Usage:
//   decltype(auto) local = LocalDraws(src);  ...loop on local...  Commit(src, local);
inline StreamDraws LocalDraws(const StreamDraws& src) { return src; }
inline CounterDraws& LocalDraws(CounterDraws& src) { return src; }
inline LaneDraws& LocalDraws(LaneDraws& src) { return src; }
inline void Commit(StreamDraws& src, const StreamDraws& local) { src = local; }
inline void Commit(CounterDraws& /*src*/, const CounterDraws& /*local*/) {}
inline void Commit(LaneDraws& /*src*/, const LaneDraws& /*local*/) {}

// Returns f(src) on the draw source `counter` selects: a CounterDraws keyed by one NextU64 of
// rng, or for "stream" a source on rng whose advanced state is handed back to rng when f returns:
// a LaneDraws (stream_lanes.h: the same draws, computed in vectorised lanes) when the message
// has at least kLaneDrawsMinDim elements (`dim`), else a StreamDraws.
template <class F>
auto WithDraws(bool counter, int64_t dim, Rng& rng, F&& f) {
  if (counter) {
    CounterDraws src(rng.NextU64());
    return f(src);
  }
  auto run = [&](auto& src) {
    using Src = std::remove_reference_t<decltype(src)>;
    if constexpr (std::is_void_v<std::invoke_result_t<F&, Src&>>) {
      f(src);
      rng = src.rng();
    } else {
      auto result = f(src);
      rng = src.rng();
      return result;
    }
  };
  if (dim >= kLaneDrawsMinDim) {
    LaneDraws src(rng);
    return run(src);
  }
  StreamDraws src(rng);
  return run(src);
}

// A compressor whose encoder is written once over a draw source. Derived defines
//   template <class Src> Message EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x,
//                                           Src& src, const DecodeTarget* target) const;
// (the contract of EncodeImpl, with the draws from src), and EncodeImpl runs it on the source
// that the config's "rng" key picks (WithDraws). Derived's .cc file, where EncodeWith is defined,
// instantiates the base: `template class DrawingCompressor<Derived>;` (its header declares it
// `extern`), and befriends it if EncodeWith is private.
template <class Derived>
class DrawingCompressor : public Compressor {
 protected:
  // REQUIRES: rng passed DescribeRngKey's choices.
  DrawingCompressor(std::string_view name, bool unbiased, const std::string& rng)
      : Compressor(name, unbiased), counter_rng_(UsesCounterRng(rng)) {}

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const final;
  bool counter_rng_;
};

template <class Derived>
Message DrawingCompressor<Derived>::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                                               const DecodeTarget* target) const {
  const auto& self = static_cast<const Derived&>(*this);
  return WithDraws(counter_rng_, x.size(), rng,
                   [&](auto& src) { return self.EncodeWith(x, src, target); });
}

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_UNIFORM_DRAWS_H_
