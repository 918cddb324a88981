// The memory-traffic floor of an encoder, measured in the same run as the encoders: the time of
// one streaming read pass over the fp64 input. An encoder that reads its input `passes` times
// from memory cannot take less than passes * read pass, so memcpy time / (passes * read pass) is
// the highest share of memcpy it can reach on this machine. (Writes are left out: every encoder
// but identity writes at most 5 bits per element, against the 64 it reads.)
#ifndef COMMSIM_BENCH_MEMORY_FLOOR_H_
#define COMMSIM_BENCH_MEMORY_FLOOR_H_

#include <benchmark/benchmark.h>

#include <bit>
#include <cstdint>

namespace bench {

// One read of every element of p[0, n): the wrapping integer sum of the bit patterns, a loop the
// compiler vectorises (integer adds, no ordering constraint) and cannot drop (the sum is used).
inline uint64_t ReadPass(const double* p, int64_t n) {
  uint64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += std::bit_cast<uint64_t>(p[i]);
  benchmark::DoNotOptimize(sum);
  return sum;
}

}  // namespace bench

#endif  // COMMSIM_BENCH_MEMORY_FLOOR_H_
