// Message: one encoded payload as it travels through the simulated network.
//
// A message is its exact length in bits and its bitstream (little-endian 64-bit words; bits past
// payload_bits are zero). The network charges payload_bits plus the scenario's per-message header;
// it never looks inside. Once sent, a message is immutable and shared (SharedMessage): every copy
// of a multicast and every receiver see the one allocation, and each receiver decodes it itself
// at delivery — no party reads another party's decoded state.
//
// What the codec time model (algorithms/codec_time.h) needs travels with it, outside the bits:
// the compressor's registry name, the number of elements encoded, and the number of values the
// format carries explicitly (nonzeros: k for the sparsifiers, the elements for dense formats;
// -1 = not stated, read as the elements). A message sent as several network messages (one per
// gradient bucket, layer-wise overlap) keeps them in `parts`, in send order; its own payload_bits
// is then their sum and `words` is empty.
#ifndef COMMSIM_COMPRESSION_MESSAGE_H_
#define COMMSIM_COMPRESSION_MESSAGE_H_

#include <boost/container/vector.hpp>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace commsim {

// A message's words. resize(n, boost::container::default_init) leaves them unwritten for an
// encoder that writes every word itself (including the zero bits past payload_bits in the last).
using MessageWords = boost::container::vector<uint64_t>;

struct Message {
  int64_t payload_bits = 0;
  MessageWords words = {};
  std::string_view codec = {};  // the compressor's registry name (static storage); "" = not stated
  int64_t elements = 0;
  int64_t nonzeros = -1;
  std::vector<Message> parts = {};

  int64_t coded_values() const { return nonzeros >= 0 ? nonzeros : elements; }
};

using SharedMessage = std::shared_ptr<const Message>;

// Moves `message` into a shared, immutable message.
inline SharedMessage Share(Message message) {
  return std::make_shared<const Message>(std::move(message));
}

// Part i of a message (the message itself when it has no parts), sharing its allocation.
inline SharedMessage PartOf(const SharedMessage& m, size_t i) {
  return m->parts.empty() ? m : SharedMessage(m, &m->parts[i]);
}
// The network messages a message is sent as: its parts, or 1.
inline size_t PartCount(const Message& m) { return m.parts.empty() ? 1 : m.parts.size(); }

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_MESSAGE_H_
