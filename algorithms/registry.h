// The registries of pluggable algorithm components (one explicit registry file, one
// line per component, no static-initializer self-registration).
//
// AlgorithmRegistry(): every learning algorithm (parameter-server and decentralized).
// CompressorRegistry(): every Compressor, built from its typed config (one header per compressor
// under algorithms/compressors/ holds the Config struct and the class).
#ifndef COMMSIM_ALGORITHMS_REGISTRY_H_
#define COMMSIM_ALGORITHMS_REGISTRY_H_

#include <string_view>

#include "algorithms/algorithm.h"
#include "algorithms/compressors/compressor.h"
#include "sim/params.h"
#include "sim/registry.h"

namespace commsim {

inline constexpr std::string_view kCompressorKind = "compressor";
inline constexpr std::string_view kAlgorithmKind = "algorithm";

const Registry<Algorithm>& AlgorithmRegistry();

const Registry<Compressor>& CompressorRegistry();

// The default spec (kind "compressor") of a registered compressor; callers may then adjust the
// typed config, e.g. static_cast<BlockTernaryConfig&>(*spec.config).block = 256.
// REQUIRES: name is registered.
ComponentSpec CompressorSpec(std::string_view name);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_REGISTRY_H_
