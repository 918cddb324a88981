// libFuzzer driver: the bit codes (Elias gamma/delta/omega, Golomb, the adaptive arithmetic coder,
// the vector source code) on arbitrary bitstreams, with re-encoding as the oracle.
//
// The input picks a code and its parameters (FuzzedDataProvider), the rest is the bitstream.
//   elias, golomb  decode values until the stream ends or a DecodeError; every value decoded must
//                  re-encode to exactly the bits it was read from (the codes are canonical), and
//                  Golomb values never exceed the limit given to the decoder.
//   arithmetic     symbols from the input are encoded, then decoded back: same symbols, Finish()
//                  at the writer's end. Arbitrary streams are decoded too (DecodeError allowed).
//   vector code    a stream decoded as a vector of dimension d; a vector that decodes re-encodes
//                  and decodes to itself. Vectors from the input round-trip exactly.
#include <cstdint>
#include <span>
#include <vector>

#include "base/fuzz_support.h"
#include "compression/coding/arithmetic.h"
#include "compression/coding/arithmetic_test_util.h"
#include "compression/coding/elias.h"
#include "compression/coding/golomb.h"
#include "compression/coding/vector_source_code.h"

namespace commsim {
namespace {

using fuzz::FuzzCheck;

constexpr int64_t kMaxDim = 4096;
constexpr size_t kMaxSymbols = 4096;

Message MessageFrom(const std::vector<uint8_t>& bytes) {
  BitWriter w;
  for (uint8_t b : bytes) w.Put(b, 8);
  return w.Finish();
}

// True when bits [from, to) of a equal the whole of b.
bool SameBits(const Message& a, int64_t from, int64_t to, const Message& b) {
  if (to - from != b.payload_bits) return false;
  BitReader ra(a), rb(b);
  ra.Seek(from);
  for (int64_t left = b.payload_bits; left > 0; left -= 64) {
    const int n = static_cast<int>(std::min<int64_t>(64, left));
    if (ra.Get(n) != rb.Get(n)) return false;
  }
  return true;
}

template <class Get, class Put>
void DecodeAndReencode(const Message& m, Get get, Put put, const char* what) {
  BitReader r(m);
  try {
    while (r.remaining() > 0) {
      const int64_t from = r.position();
      const uint64_t v = get(r);
      BitWriter w;
      put(w, v);
      FuzzCheck(SameBits(m, from, r.position(), w.Finish()), what);
    }
  } catch (const DecodeError&) {
  }
}

void Elias(FuzzedDataProvider& in) {
  const int kind = in.ConsumeIntegralInRange<int>(0, 2);
  const Message m = MessageFrom(in.ConsumeRemainingBytes<uint8_t>());
  switch (kind) {
    case 0:
      DecodeAndReencode(m, GetEliasGamma, PutEliasGamma, "Elias gamma does not re-encode");
      break;
    case 1:
      DecodeAndReencode(m, GetEliasDelta, PutEliasDelta, "Elias delta does not re-encode");
      break;
    default:
      DecodeAndReencode(m, GetEliasOmega, PutEliasOmega, "Elias omega does not re-encode");
      break;
  }
}

void Golomb(FuzzedDataProvider& in) {
  const uint64_t m = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint64_t>(1, 300)
                                      : in.ConsumeIntegralInRange<uint64_t>(1, uint64_t{1} << 62);
  const uint64_t max_value = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint64_t>(0, 100000)
                                              : in.ConsumeIntegral<uint64_t>() >> 1;
  const GolombCode code(m);
  const Message msg = MessageFrom(in.ConsumeRemainingBytes<uint8_t>());
  DecodeAndReencode(
      msg,
      [&](BitReader& r) {
        const uint64_t v = code.Get(r, max_value);
        FuzzCheck(v <= max_value, "Golomb value above the decoder's limit");
        return v;
      },
      [&](BitWriter& w, uint64_t v) { code.Put(w, v); }, "Golomb does not re-encode");
}

void Arithmetic(FuzzedDataProvider& in) {
  const int alphabet = in.ConsumeIntegralInRange<int>(2, 256);
  const size_t count = in.ConsumeIntegralInRange<size_t>(0, kMaxSymbols);
  if (in.ConsumeBool()) {  // arbitrary stream
    const Message m = MessageFrom(in.ConsumeRemainingBytes<uint8_t>());
    fuzz::FuzzGuard([&] {
      BitReader r(m);
      AdaptiveModel model(alphabet);
      ArithmeticDecoder dec(r);
      for (size_t i = 0; i < count; ++i) {
        const int s = dec.Decode(model);
        FuzzCheck(s >= 0 && s < alphabet, "arithmetic symbol outside the alphabet");
      }
      dec.Finish(r.size());
    });
    return;
  }
  std::vector<int> symbols;
  // Skewed alphabets are the interesting ones: most symbols below `hot`.
  const int hot = in.ConsumeIntegralInRange<int>(1, alphabet);
  while (symbols.size() < count && in.remaining_bytes() > 0) {
    symbols.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<int>(0, hot - 1)
                                       : in.ConsumeIntegralInRange<int>(0, alphabet - 1));
  }
  const Message m = coding_test::EncodeSymbols(symbols, alphabet);
  BitReader r(m);
  AdaptiveModel dec_model(alphabet);
  ArithmeticDecoder dec(r);
  try {
    for (int s : symbols) FuzzCheck(dec.Decode(dec_model) == s, "arithmetic round trip differs");
    dec.Finish(r.size());
  } catch (const DecodeError& e) {
    FuzzCheck(false, e.what());
  }
}

std::vector<int32_t> RoundTripVector(std::span<const int32_t> z) {
  BitWriter w;
  PutVectorSourceCode(w, z);
  const Message m = w.Finish();
  std::vector<int32_t> back(z.size(), 7);
  BitReader r(m);
  try {
    GetVectorSourceCode(r, back);
    r.ExpectEnd();
  } catch (const DecodeError& e) {
    FuzzCheck(false, e.what());
  }
  return back;
}

void VectorCode(FuzzedDataProvider& in) {
  const int64_t d = in.ConsumeIntegralInRange<int64_t>(1, kMaxDim);
  if (in.ConsumeBool()) {  // arbitrary stream
    const Message m = MessageFrom(in.ConsumeRemainingBytes<uint8_t>());
    std::vector<int32_t> z(static_cast<size_t>(d));
    bool decoded = false;
    fuzz::FuzzGuard([&] {
      BitReader r(m);
      GetVectorSourceCode(r, z);
      decoded = true;
    });
    if (decoded) FuzzCheck(RoundTripVector(z) == z, "decoded vector does not round-trip");
    return;
  }
  const int32_t spread = in.ConsumeBool() ? 3 : INT32_MAX;
  const int zero_percent = in.ConsumeIntegralInRange<int>(0, 100);
  std::vector<int32_t> z(static_cast<size_t>(d), 0);
  for (int32_t& v : z) {
    if (in.ConsumeIntegralInRange<int>(0, 99) >= zero_percent) {
      v = in.ConsumeIntegralInRange<int32_t>(-spread, spread);
    }
  }
  FuzzCheck(RoundTripVector(z) == z, "vector source code round trip differs");
}

// One input: its first byte picks the code under test.
void FuzzOneCode(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      Elias(in);
      break;
    case 1:
      Golomb(in);
      break;
    case 2:
      Arithmetic(in);
      break;
    default:
      VectorCode(in);
      break;
  }
}

}  // namespace
}  // namespace commsim

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzWithProvider(data, size, 8192, commsim::FuzzOneCode);
}
