// CounterRng: counter-based uniform draws (Philox4x32-10), for loops that need one random number
// per element and want them in vectorisable blocks instead of from a serial stream.
//
// Contract:
//   - A CounterRng is a pure function of (key, element index j): Draw(j) is a 32-bit uniform
//     integer, the same on every machine, whatever the order or chunking in which draws are asked
//     for. Callers take the key from their Rng (one NextU64 per message), so the Rng advances by
//     exactly one step per message.
//   - The block function is Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
//     1, 2, 3", SC'11; the Random123 library's philox4x32 with 10 rounds). Key = the 64-bit key as
//     (low, high) 32-bit words. Element j uses output word w = (j / 64) % 4 of the block at
//     counter (j % 64, c low, c high, 0), c = j / 256: 256 consecutive elements are 64 blocks,
//     generated side by side (64 lanes) and stored word by word, so the generator vectorises.
//   - Draws are 32-bit: a Bernoulli(p) outcome drawn as Draw(j) < p 2^32 has probability within
//     2^-32 of p (see the stochastic compressors' headers for what that means for them).
//   - Immutable and without hidden state: safe to share across threads.
//   - FillChunk is compiled for several instruction sets (gcc target_clones: AVX-512, AVX2,
//     baseline x86-64) and picks one at load time; it is integer-only, so every version gives the
//     same bits.
#ifndef COMMSIM_BASE_COUNTER_RNG_H_
#define COMMSIM_BASE_COUNTER_RNG_H_

#include <cstdint>

namespace commsim {

class CounterRng {
 public:
  // Elements per chunk (64 Philox blocks of 4 words).
  static constexpr int64_t kChunk = 256;

  explicit CounterRng(uint64_t key) : key_(key) {}
  uint64_t key() const { return key_; }

  // out[k] = Draw(kChunk * chunk + k) for k in [0, kChunk).
  void FillChunk(uint64_t chunk, uint32_t* out) const;
  // out[k] = Draw(first + k) for k in [0, n). REQUIRES: n >= 0.
  void Fill(uint64_t first, int64_t n, uint32_t* out) const;
  // One element's draw (computes a whole block: for tests and scattered use).
  uint32_t Draw(uint64_t j) const;

 private:
  uint64_t key_;
};

}  // namespace commsim

#endif  // COMMSIM_BASE_COUNTER_RNG_H_
