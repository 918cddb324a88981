#include "algorithms/registry.h"

#include "algorithms/compressors/block_ternary.h"
#include "algorithms/compressors/dithered.h"
#include "algorithms/compressors/identity.h"
#include "algorithms/compressors/qsgd.h"
#include "algorithms/compressors/rand_k.h"
#include "algorithms/compressors/scaled_sign.h"
#include "algorithms/compressors/top_k.h"
#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/dpsgd.h"
#include "algorithms/ps/diana.h"
#include "algorithms/ps/dore.h"
#include "algorithms/ps/doublesqueeze.h"
#include "algorithms/ps/memsgd.h"
#include "algorithms/ps/ps_driver.h"
#include "algorithms/ps/sgd.h"

namespace commsim {

const Registry<Compressor>& CompressorRegistry() {
  static const Registry<Compressor> registry = [] {
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
    return r;
  }();
  return registry;
}

const Registry<Algorithm>& AlgorithmRegistry() {
  static const Registry<Algorithm> registry = [] {
    Registry<Algorithm> r;
    r.Add<PsAlgorithm<SgdRule, SgdConfig>, SgdConfig>(
        "sgd", "parameter server: full-precision gradients up, model down");
    r.Add<PsAlgorithm<SgdRule, SgdConfig>, SgdConfig>(
        "qsgd", "parameter server: quantized gradients up (qsgd), model down",
        &SgdConfig::QsgdDefaults);
    r.Add<PsAlgorithm<MemSgdRule, MemSgdConfig>, MemSgdConfig>(
        "memsgd", "parameter server: error-feedback top-k gradients up, model down");
    r.Add<PsAlgorithm<DianaRule, DianaConfig>, DianaConfig>(
        "diana", "parameter server: compressed gradient differences (shifts) up, model down");
    r.Add<PsAlgorithm<DoubleSqueezeRule, DoubleSqueezeConfig>, DoubleSqueezeConfig>(
        "doublesqueeze", "parameter server: error-compensated compression both ways");
    r.Add<PsAlgorithm<DoreRule, DoreConfig>, DoreConfig>(
        "dore", "parameter server: gradient and model residuals compressed both ways");
    r.Add<DpsgdAlgorithm, DpsgdConfig>("dpsgd", "D-PSGD: gossip full models, local SGD step");
    r.Add<ChocoAlgorithm, ChocoConfig>(
        "choco", "CHOCO-SGD: gossip compressed model differences with error-compensated copies");
    r.Add<ChocoAlgorithm, ChocoConfig>(
        "malcom", "MALCOM-PSGD [recon]: CHOCO + dithered/source-coded residuals + l1 proximal step",
        &SetMalcomDefaults);
    return r;
  }();
  return registry;
}

ComponentSpec CompressorSpec(std::string_view name) {
  return CompressorRegistry().DefaultSpec(kCompressorKind, name);
}

}  // namespace commsim
