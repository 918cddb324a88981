#include "compression/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/error.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/dgc.h"
#include "compression/compressors/dithered.h"
#include "compression/compressors/fp16.h"
#include "compression/compressors/hadamard.h"
#include "compression/compressors/identity.h"
#include "compression/compressors/int8.h"
#include "compression/compressors/natural.h"
#include "compression/compressors/onebit.h"
#include "compression/compressors/qsgd.h"
#include "compression/compressors/rand_k.h"
#include "compression/compressors/scaled_sign.h"
#include "compression/compressors/sign.h"
#include "compression/compressors/terngrad.h"
#include "compression/compressors/top_k.h"

namespace commsim {
namespace {

Registry<Compressor>& Compressors() {
  static Registry<Compressor> registry = [] {
    Registry<Compressor> r;
    r.Add<Identity, IdentityConfig>("identity", "full precision (fp32 or fp64 values)");
    r.Add<BlockTernary, BlockTernaryConfig>(
        "block_ternary", "DIANA/DORE block p-quantization to {-1,0,+1} x block norm (unbiased)");
    r.Add<Qsgd, QsgdConfig>("qsgd", "QSGD stochastic s-level quantization per bucket (unbiased)");
    r.Add<TopK, TopKConfig>("top_k", "keep the k largest magnitudes (biased, contractive)");
    r.Add<RandK, RandKConfig>("rand_k", "keep k uniformly random coordinates (shared seed)");
    r.Add<ScaledSign, ScaledSignConfig>("scaled_sign", "per-block mean magnitude x sign (1 bit)");
    r.Add<Dithered, DitheredConfig>(
        "dithered", "MALCOM dithered quantization + vector source code [recon] (unbiased)");
    r.Add<Fp16, Fp16Config>("fp16", "every value as IEEE half precision (16 bits, nearest)");
    r.Add<Int8, Int8Config>("int8", "linear 8-bit quantization per block (fp32 max + 8 bits each)");
    r.Add<TernGrad, TernGradConfig>(
        "terngrad", "TernGrad: {-1,0,+1} x max-norm scale, optional clipping (unbiased without)");
    r.Add<Natural, NaturalConfig>(
        "natural", "natural compression: random rounding to a power of two (9 bits, unbiased)");
    r.Add<Sign, SignConfig>("sign", "signSGD: one bit per element, decoded +-scale (biased)");
    r.Add<OneBit, OneBitConfig>("onebit", "FO-SGD dithered one-bit quantizer, fp32 lambda + 1 bit");
    r.Add<Hadamard, HadamardConfig>("hadamard",
                                    "random Hadamard rotation, then the inner compressor (FO-SGD)");
    r.Add<Dgc, DgcConfig>("dgc",
                          "Deep Gradient Compression: sampled threshold, at most k kept [recon]");
    return r;
  }();
  return registry;
}

// The names of the built-in compressors, which runtime ones may not take.
const std::vector<std::string>& BuiltInNames() {
  static const std::vector<std::string> names = Compressors().names();
  return names;
}

}  // namespace

const Registry<Compressor>& CompressorRegistry() { return Compressors(); }

void AddRuntimeCompressor(Registry<Compressor>::Entry entry) {
  const std::vector<std::string>& built_in = BuiltInNames();
  if (std::find(built_in.begin(), built_in.end(), entry.name) != built_in.end()) {
    throw UserError(
        fmt::format("compressor name \"{}\" is taken by a built-in compressor: choose another name",
                    entry.name));
  }
  Compressors().Put(std::move(entry));
}

ComponentSpec CompressorSpec(std::string_view name) {
  return CompressorRegistry().DefaultSpec(kCompressorKind, name);
}

}  // namespace commsim
