#include "base/rng.h"

#include <cmath>

#include "base/hash.h"

namespace commsim {
namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t DeriveSeed(uint64_t seed, uint64_t agent, std::string_view purpose) {
  // FNV-1a over the purpose, then splitmix rounds folding in each part.
  const uint64_t h = Fnv1a64(purpose);
  uint64_t state = seed;
  uint64_t out = SplitMix64(state);
  state ^= agent * 0xd6e8feb86659fd93ULL;
  out ^= SplitMix64(state);
  state ^= h;
  out ^= SplitMix64(state);
  return out;
}

Rng::Rng(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t& word : s_) word = SplitMix64(state);
}

uint64_t Rng::UniformInt(uint64_t n) {
  __uint128_t m = static_cast<__uint128_t>(NextU64()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<__uint128_t>(NextU64()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

double Rng::Normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_normal_;
  }
  double u, v, s;
  do {
    u = 2.0 * Uniform() - 1.0;
    v = 2.0 * Uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * std::log(s) / s);
  spare_normal_ = v * factor;
  has_spare_ = true;
  return u * factor;
}

}  // namespace commsim
