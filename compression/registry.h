// The compression library's registry: every Compressor, one line each, built from its typed
// config (one header per compressor under compression/compressors/ holds the Config struct and the
// class). Nothing here knows of the simulator: a program can build a compressor by name, encode and
// decode with it, and read its bits, linking the compression library and the base layer only.
#ifndef COMMSIM_COMPRESSION_REGISTRY_H_
#define COMMSIM_COMPRESSION_REGISTRY_H_

#include <string_view>

#include "base/params.h"
#include "base/registry.h"
#include "compression/compressors/compressor.h"

namespace commsim {

inline constexpr std::string_view kCompressorKind = "compressor";

// The built-in compressors, then those added by AddRuntimeCompressor.
const Registry<Compressor>& CompressorRegistry();

// Adds a compressor defined while the program runs (a class written in Python, python/), found by
// name like a built-in one from then on; a second call with the same name replaces it. Its
// factories must be thread-safe. Throws UserError when a built-in compressor has that name.
// REQUIRES: nothing reads CompressorRegistry() meanwhile (no run in progress): the registry is
// read without a lock.
void AddRuntimeCompressor(Registry<Compressor>::Entry entry);

// The default spec (kind "compressor") of a registered compressor; callers may then adjust the
// typed config, e.g. static_cast<BlockTernaryConfig&>(*spec.config).block = 256.
// REQUIRES: name is registered.
ComponentSpec CompressorSpec(std::string_view name);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_REGISTRY_H_
