#include "compression/codec/framework_wire.h"

#include <algorithm>

#include "base/check.h"
#include "base/error.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"

namespace commsim {

int64_t FrameworkWireBits(std::string_view compressor, int64_t elements, int64_t kept) {
  if (compressor == "identity") return 32 * elements;
  if (compressor == "top_k" || compressor == "rand_k") return 64 * kept;
  if (compressor == "scaled_sign" || compressor == "qsgd" || compressor == "block_ternary") {
    return 8 * elements + 32;
  }
  return -1;
}

std::string_view FrameworkWireCompressors() {
  return "identity, top_k, rand_k, scaled_sign, qsgd, block_ternary";
}

Message ToFrameworkWire(const Message& exact) {
  const int64_t layout = FrameworkWireBits(exact.codec, exact.elements, exact.coded_values());
  COMMSIM_CHECK(layout >= 0 && exact.parts.empty(), "no framework layout for {}", exact.codec);
  const int64_t bits = std::max(layout, exact.payload_bits + 64);
  BitWriter w;
  w.Reserve(bits);
  const int64_t full = exact.payload_bits / 64;
  for (int64_t i = 0; i < full; ++i) w.Put(exact.words[static_cast<size_t>(i)], 64);
  if (const int rest = static_cast<int>(exact.payload_bits % 64); rest > 0) {
    w.Put(exact.words[static_cast<size_t>(full)], rest);
  }
  w.PutZeros(bits - 64 - exact.payload_bits);
  w.Put(static_cast<uint64_t>(exact.payload_bits), 64);
  Message framed = w.Finish();
  framed.codec = exact.codec;
  framed.elements = exact.elements;
  framed.nonzeros = exact.nonzeros;
  return framed;
}

Message FromFrameworkWire(const Message& framed) {
  BitReader r(framed);
  if (framed.payload_bits < 64) throw DecodeError("framework wire: message shorter than 64 bits");
  r.Skip(framed.payload_bits - 64);
  const uint64_t length = r.Get(64);
  if (length > static_cast<uint64_t>(framed.payload_bits - 64)) {
    throw DecodeError("framework wire: the length word is past the message");
  }
  BitReader body(framed);
  BitWriter w;
  const auto bits = static_cast<int64_t>(length);
  for (int64_t left = bits; left > 0; left -= 64) {
    const int n = static_cast<int>(std::min<int64_t>(64, left));
    w.Put(body.Get(n), n);
  }
  Message exact = w.Finish();
  exact.codec = framed.codec;
  exact.elements = framed.elements;
  exact.nonzeros = framed.nonzeros;
  return exact;
}

}  // namespace commsim
