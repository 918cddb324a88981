// Codec costs built from operation classes: a device profile may list what one GPU (or CPU)
// operation costs, and give a compressor's encode or decode as the operations it runs instead of
// as fitted coefficients.
//
// Format (inside a codec device profile, scenarios/codec_profile_file.h):
//   "operations": {"<class>": {"call_s": s, "item_s": s, "note": "where the numbers come from"}},
//   "compressors": {"top_k": {"encode": {"ops": ["select"]},
//                             "decode": {"ops": ["elementwise", "scatter per nonzero"]}}}
// A class costs call_s per call (kernel launch and framework dispatch) and item_s per item it
// processes. A step is "[N x ]<class>[ per element| per nonzero]": N calls (default 1) of the
// class over every element of the message (the default) or over its coded values (nonzeros,
// compression/message.h). A recipe compiles to CodecCost:
//   c0_s = sum of N x call_s;  elem_s (nnz_s) = sum of N x item_s over the per-element
//   (per-nonzero) steps;  bit_s = 0.
// The class names are the profile's own: the shipped GPU profiles use elementwise, reduction,
// pack, unpack, select, sort, random and scatter (docs/scenarios.md#codec-device-profiles).
#ifndef COMMSIM_SCENARIOS_CODEC_RECIPE_H_
#define COMMSIM_SCENARIOS_CODEC_RECIPE_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "algorithms/codec_time.h"
#include "scenarios/json_config.h"

namespace commsim {

struct CodecOperation {
  double call_s = 0;  // seconds per call
  double item_s = 0;  // seconds per item processed
  std::string note;
};
using CodecOperations = std::map<std::string, CodecOperation, std::less<>>;

// Reads the "operations" object at `pointer`; problems go to `errors`.
CodecOperations ReadCodecOperations(const nlohmann::json& value, const std::string& pointer,
                                    ErrorList& errors);

// Compiles the "ops" array at `pointer` over `operations` into a cost; problems (an unknown
// class with a did-you-mean, a malformed step) go to `errors`.
CodecCost CompileCodecRecipe(const nlohmann::json& ops, const std::string& pointer,
                             const CodecOperations& operations, ErrorList& errors);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_CODEC_RECIPE_H_
