// Codec device profiles as JSON files: the shipped ones (algorithms/codec/devices/*.json,
// compiled into the program) and a user's own file.
//
// Format:
//   {"device": "cpu_core",
//    "source": "how the numbers were obtained (machine, date, command, or the estimate)",
//    "compressors": {
//      "<registry name>": {"note": "optional text",
//                          "encode": {"c0_s": 0, "elem_s": 0, "nnz_s": 0, "bit_s": 0},
//                          "decode": {...}}, ...}}
// Coefficients are seconds (per call, per element, per coded value, per payload bit), >= 0;
// a missing coefficient is 0. A profile may instead list "operations" (what each operation class
// costs) and give a direction as {"ops": [...]}, the operations it runs (scenarios/codec_recipe.h).
// Unknown keys are errors (with a did-you-mean); errors name the file and the JSON pointer.
#ifndef COMMSIM_SCENARIOS_CODEC_PROFILE_FILE_H_
#define COMMSIM_SCENARIOS_CODEC_PROFILE_FILE_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/codec_time.h"

namespace commsim {

// Throws UserError "origin: /pointer: ..." listing every problem.
std::shared_ptr<const CodecProfile> ParseCodecProfile(const nlohmann::json& doc,
                                                      const std::string& origin);
// Reads and parses a profile file. Throws UserError.
std::shared_ptr<const CodecProfile> LoadCodecProfileFile(const std::string& path);
// The shipped profile of `device`, or nullptr.
std::shared_ptr<const CodecProfile> ShippedCodecProfile(std::string_view device);
// The shipped devices' names, sorted.
std::vector<std::string> ShippedCodecDevices();
// The profile as a document of the format above.
nlohmann::json CodecProfileJson(const CodecProfile& profile);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_CODEC_PROFILE_FILE_H_
