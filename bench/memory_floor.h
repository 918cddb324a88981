// The memory-traffic floor of an encoder, measured in the same run as the encoders: the time of
// one streaming read pass over the fp64 input and of one streaming write pass of 4 bytes per
// element. An encoder that reads its input `passes` times from DRAM and writes `bits_per_element`
// bits per element cannot take less than
//   passes * read_pass + bits_per_element / 32 * write_pass,
// so memcpy time / that time is the highest share of memcpy it can reach on this machine.
#ifndef COMMSIM_BENCH_MEMORY_FLOOR_H_
#define COMMSIM_BENCH_MEMORY_FLOOR_H_

#include <benchmark/benchmark.h>

#include <bit>
#include <cstdint>
#include <vector>

namespace bench {

// One read of every element of p[0, n): the wrapping integer sum of the bit patterns, a loop the
// compiler vectorises (integer adds, no ordering constraint) and cannot drop (the sum is used).
inline uint64_t ReadPass(const double* p, int64_t n) {
  uint64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += std::bit_cast<uint64_t>(p[i]);
  benchmark::DoNotOptimize(sum);
  return sum;
}

// One write of every word of w[0, n) with ordinary stores (as the encoders write their messages;
// not a memset, which may use non-temporal stores): w[i] = i ^ salt.
inline void WritePass(uint64_t* w, int64_t n, uint64_t salt) {
  for (int64_t i = 0; i < n; ++i) w[i] = static_cast<uint64_t>(i) ^ salt;
  benchmark::DoNotOptimize(w);
  benchmark::ClobberMemory();
}

struct TrafficBaseline {
  double read_s = 0;   // one read pass over the d fp64 values (8d bytes)
  double write_s = 0;  // one write pass of 4d bytes
  // The least encode time of `passes` reads of the input and a message of `bits_per_element`.
  double FloorSeconds(int passes, double bits_per_element) const {
    return passes * read_s + bits_per_element / 32.0 * write_s;
  }
};

}  // namespace bench

#endif  // COMMSIM_BENCH_MEMORY_FLOOR_H_
