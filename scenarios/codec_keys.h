// The scenario's `codec` key: how encoding and decoding count on the timeline
// (algorithms/codec_time.h).
//
//   codec {mode ("model" | "none" | "measured"), device ("cpu_core"; a shipped profile:
//          algorithms/codec/devices/<device>.json), profile (a profile file of one's own, relative
//          to the scenario's folder; overrides device), server_threads (1: the server's decode and
//          encode lanes)}
// Backward compatibility, as for the network model: a scenario without any `codec` key (at the
// top or in an entry) runs with mode "none", so old scenarios keep their numbers; a `codec` object
// without `mode` means "model". An entry's `codec` overrides fields of the scenario's (or of the
// defaults with mode "model" when the scenario has none).
#ifndef COMMSIM_SCENARIOS_CODEC_KEYS_H_
#define COMMSIM_SCENARIOS_CODEC_KEYS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "algorithms/codec_time.h"
#include "base/params.h"
#include "scenarios/json_config.h"

namespace commsim {

struct CodecKeys final : ConfigBase<CodecKeys> {
  std::string mode = "model";
  std::string device = "cpu_core";
  std::string profile;  // absolute after parsing; "" = the shipped profile of `device`
  int64_t server_threads = 1;
  void Describe(ParamVisitor& v) override;
};

// Reads a `codec` object at `pointer` on top of `keys`; a relative profile path is made absolute
// against base_dir.
void ReadCodecKeys(const nlohmann::json& object, const std::string& pointer,
                   const std::string& base_dir, CodecKeys& keys, ErrorList& errors);

// The run's codec setup for an entry running `algorithm`: loads the profile (model mode) and
// checks that it has every compressor the algorithm uses; errors at `pointer` (the codec key)
// or at the compressor's pointer inside the entry (`entry_pointer`).
CodecSetup ResolveCodec(const CodecKeys& keys, const ComponentSpec& algorithm,
                        const std::string& pointer, const std::string& entry_pointer,
                        ErrorList& errors);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_CODEC_KEYS_H_
