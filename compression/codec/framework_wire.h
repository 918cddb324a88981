// Framework wire formats: the layout a training framework ships for a compressor's message
// (GRACE over TensorFlow and Horovod: index tensors int32, values fp32, signs and quantization
// levels one byte each, a scale fp32), as opposed to commsim's exact encoding, so that the bits a
// run charges are what that framework sends.
//
//   compressor                    framework layout of a part of e elements, k kept
//   identity                      32 e            (fp32 values)
//   top_k, rand_k                 64 k            (int32 index + fp32 value)
//   scaled_sign, qsgd,            8 e + 32        (one byte per element + an fp32 scale or norm)
//   block_ternary
// A framed message is the exact encoding, zero bits up to the layout's size, and the exact
// encoding's length in the last 64 bits: payload_bits = max(layout, exact + 64), so decoding stays
// exact (the length word lies inside the layout's bits whenever the layout is at least 64 bits
// longer than the exact encoding, the usual case).
#ifndef COMMSIM_COMPRESSION_CODEC_FRAMEWORK_WIRE_H_
#define COMMSIM_COMPRESSION_CODEC_FRAMEWORK_WIRE_H_

#include <cstdint>
#include <string_view>

#include "compression/message.h"

namespace commsim {

// The layout's bits for a part of `elements` values with `kept` values kept, or -1 when the
// compressor has no framework layout.
int64_t FrameworkWireBits(std::string_view compressor, int64_t elements, int64_t kept);
// The compressors with a layout, for messages: "identity, top_k, ...".
std::string_view FrameworkWireCompressors();

// REQUIRES: FrameworkWireBits(exact.codec, ...) >= 0; exact has no parts.
Message ToFrameworkWire(const Message& exact);
// The exact encoding back. Throws DecodeError when the length word is not a length inside the
// message.
Message FromFrameworkWire(const Message& framed);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODEC_FRAMEWORK_WIRE_H_
