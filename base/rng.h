// Deterministic random streams (no global RNG, no hidden randomness).
//
// Every stream is derived from (scenario seed, agent id, purpose) with DeriveSeed and passed by
// reference as Rng&. The generator is xoshiro256** seeded through splitmix64; Normal() uses the
// Marsaglia polar method implemented here, so a stream's values do not depend on the standard
// library's distribution code. Same seed -> same values, on every thread count.
#ifndef COMMSIM_BASE_RNG_H_
#define COMMSIM_BASE_RNG_H_

#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

namespace commsim {

// Mixes a scenario seed, an agent id and a purpose tag into one 64-bit stream seed.
uint64_t DeriveSeed(uint64_t seed, uint64_t agent, std::string_view purpose);

// The xoshiro256** state transition on its four words: for one stream (Word = uint64_t), or for
// many streams at once (a vector type with uint64_t lanes and the same integer operators, as in
// compression/compressors/stream_lanes.cc).
template <class Word>
inline void XoshiroStep(Word (&s)[4]) {
  const Word t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
}

class Rng {
 public:
  using result_type = uint64_t;
  explicit Rng(uint64_t seed);
  Rng(uint64_t seed, uint64_t agent, std::string_view purpose)
      : Rng(DeriveSeed(seed, agent, purpose)) {}

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  result_type operator()() { return NextU64(); }

  uint64_t NextU64() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    XoshiroStep(s_);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n). REQUIRES: n > 0. Unbiased (Lemire's method).
  uint64_t UniformInt(uint64_t n);
  bool Bernoulli(double p) { return Uniform() < p; }
  // Standard normal N(0, 1).
  double Normal();
  // The four xoshiro256** state words, for code that computes the same stream in several lanes
  // at once by jumping ahead. set_state leaves the cached second normal deviate as it is.
  std::array<uint64_t, 4> state() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void set_state(const std::array<uint64_t, 4>& s) {
    for (int i = 0; i < 4; ++i) s_[i] = s[static_cast<size_t>(i)];
  }

 private:
  static constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
  double spare_normal_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace commsim

#endif  // COMMSIM_BASE_RNG_H_
