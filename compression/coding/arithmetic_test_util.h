// Shared by the arithmetic coder's tests and its fuzz target: a symbol stream through an encoder.
#ifndef COMMSIM_COMPRESSION_CODING_ARITHMETIC_TEST_UTIL_H_
#define COMMSIM_COMPRESSION_CODING_ARITHMETIC_TEST_UTIL_H_

#include <vector>

#include "compression/coding/arithmetic.h"
#include "compression/coding/bit_writer.h"

namespace commsim::coding_test {

// The message of `symbols` coded by an Encoder (ArithmeticEncoder, or a reference coder with its
// constructor, Encode and Finish) with a fresh AdaptiveModel of `alphabet` symbols.
template <class Encoder = ArithmeticEncoder>
Message EncodeSymbols(const std::vector<int>& symbols, int alphabet) {
  BitWriter w;
  AdaptiveModel model(alphabet);
  Encoder enc(w);
  for (int s : symbols) enc.Encode(model, s);
  enc.Finish();
  return w.Finish();
}

}  // namespace commsim::coding_test

#endif  // COMMSIM_COMPRESSION_CODING_ARITHMETIC_TEST_UTIL_H_
