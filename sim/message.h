// Message: one encoded payload as it travels through the simulated network.
//
// A message is its exact length in bits and its bitstream (little-endian 64-bit words; bits past
// payload_bits are zero). The network charges payload_bits plus the scenario's per-message header;
// it never looks inside. Once sent, a message is immutable and shared (SharedMessage): every copy
// of a multicast and every receiver see the one allocation, and each receiver decodes it itself
// at delivery — no party reads another party's decoded state.
#ifndef COMMSIM_SIM_MESSAGE_H_
#define COMMSIM_SIM_MESSAGE_H_

#include <cstdint>
#include <memory>
#include <vector>

namespace commsim {

struct Message {
  int64_t payload_bits = 0;
  std::vector<uint64_t> words;
};

using SharedMessage = std::shared_ptr<const Message>;

// Moves `message` into a shared, immutable message.
inline SharedMessage Share(Message message) {
  return std::make_shared<const Message>(std::move(message));
}

}  // namespace commsim

#endif  // COMMSIM_SIM_MESSAGE_H_
