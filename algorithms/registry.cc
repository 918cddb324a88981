#include "algorithms/registry.h"

#include "algorithms/collective/allgather_compressed.h"
#include "algorithms/collective/allreduce_compressed.h"
#include "algorithms/collective/allreduce_sgd.h"
#include "algorithms/collective/cocod_sgd.h"
#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/powersgd.h"
#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/dpsgd.h"
#include "algorithms/decentralized/gossip.h"
#include "algorithms/decentralized/powergossip.h"
#include "algorithms/decentralized/qgadmm.h"
#include "algorithms/decentralized/sdm_dsgd.h"
#include "algorithms/ps/diana.h"
#include "algorithms/ps/dore.h"
#include "algorithms/ps/doublesqueeze.h"
#include "algorithms/ps/memsgd.h"
#include "algorithms/ps/ps_driver.h"
#include "algorithms/ps/sgd.h"

namespace commsim {

namespace {

// The parameter-server family (algorithms/ps/).
void AddParameterServer(Registry<Algorithm>& r) {
  AddAlgorithm<PsAlgorithm<SgdRule>>(
      r, {.name = "sgd",
          .baseline = true,
          .color = "#222222",
          .learning_ignores_time = true,
          .help = "parameter server: full-precision gradients up, model down"});
  AddAlgorithm<PsAlgorithm<SgdRule>>(
      r,
      {.name = "qsgd",
       .color = "#1f77b4",
       .learning_ignores_time = true,
       .help = "parameter server: quantized gradients up (qsgd), model down"},
      &SgdConfig::QsgdDefaults);
  AddAlgorithm<PsAlgorithm<MemSgdRule>>(
      r, {.name = "memsgd",
          .color = "#ff7f0e",
          .learning_ignores_time = true,
          .help = "parameter server: error-feedback top-k gradients up, model down"});
  AddAlgorithm<PsAlgorithm<DianaRule>>(
      r, {.name = "diana",
          .color = "#2ca02c",
          .learning_ignores_time = true,
          .help = "parameter server: compressed gradient differences (shifts) up, model down"});
  AddAlgorithm<PsAlgorithm<DoubleSqueezeRule>>(
      r, {.name = "doublesqueeze",
          .color = "#9467bd",
          .learning_ignores_time = true,
          .help = "parameter server: error-compensated compression both ways"});
  AddAlgorithm<PsAlgorithm<DoreRule>>(
      r, {.name = "dore",
          .color = "#d62728",
          .learning_ignores_time = true,
          .help = "parameter server: gradient and model residuals compressed both ways"});
}

// The related methods that are options of the rounds above, with their papers' defaults.
void AddParameterServerRelated(Registry<Algorithm>& r) {
  AddAlgorithm<PsAlgorithm<DoubleSqueezeRule>>(
      r,
      {.name = "ef_blocksgd",
       .color = "#8c6d31",
       .learning_ignores_time = true,
       .help = "dist-EF-blockSGD: per-tensor scaled sign both ways, error feedback on "
               "workers and server, Nesterov momentum"},
      &DoubleSqueezeConfig::EfBlockSgdDefaults);
  AddAlgorithm<PsAlgorithm<DoubleSqueezeRule>>(
      r,
      {.name = "fo_sgd",
       .color = "#6b6ecf",
       .learning_ignores_time = true,
       .help = "FO-SGD: randomized Hadamard rotation + dithered one-bit quantization both ways"},
      &DoubleSqueezeConfig::FoSgdDefaults);
  AddAlgorithm<PsAlgorithm<DoubleSqueezeRule>>(
      r,
      {.name = "signum",
       .color = "#e7969c",
       .learning_ignores_time = true,
       .help = "Signum: sign of the momentum up, majority vote (sign of the summed signs) down"},
      &DoubleSqueezeConfig::SignumDefaults);
  AddAlgorithm<PsAlgorithm<MemSgdRule>>(
      r,
      {.name = "dgc",
       .color = "#ad494a",
       .learning_ignores_time = true,
       .help = "Deep Gradient Compression: sampled-threshold sparsification, momentum "
               "correction, factor masking"},
      &MemSgdConfig::DgcDefaults);
}

// The decentralized family (algorithms/decentralized/).
void AddDecentralized(Registry<Algorithm>& r) {
  AddAlgorithm<DecentralizedAlgorithm<DpsgdRule>>(
      r, {.name = "dpsgd",
          .baseline = true,
          .color = "#7f7f7f",
          .learning_ignores_time = true,
          .help = "D-PSGD: gossip full models, local SGD step"});
  AddAlgorithm<DecentralizedAlgorithm<ChocoRule>>(
      r, {.name = "choco",
          .color = "#17becf",
          .learning_ignores_time = true,
          .help = "CHOCO-SGD: gossip compressed model differences with error-compensated "
                  "copies"});
  AddAlgorithm<DecentralizedAlgorithm<ChocoRule>>(
      r,
      {.name = "malcom",
       .color = "#e377c2",
       .learning_ignores_time = true,
       .help = "MALCOM-PSGD [recon]: CHOCO + dithered/source-coded residuals + l1 proximal "
               "step"},
      &SetMalcomDefaults);
}

// The decentralized related work (algorithms/decentralized/), and gossip on its own.
void AddDecentralizedRelated(Registry<Algorithm>& r) {
  AddAlgorithm<DecentralizedAlgorithm<GossipRule>>(
      r,
      {.name = "gossip",
       .color = "#c7c7c7",
       .learning_ignores_time = true,
       .help = "plain gossip x += gamma_c (W x - x), no gradient (needs the consensus problem)"});
  AddAlgorithm<DecentralizedAlgorithm<ChocoGossipRule>>(
      r, {.name = "choco_gossip",
          .color = "#9edae5",
          .learning_ignores_time = true,
          .help = "CHOCO-Gossip: compressed average consensus with error-compensated copies, no "
                  "gradient"});
  AddAlgorithm<DecentralizedAlgorithm<PowerGossipRule>>(
      r, {.name = "powergossip",
          .color = "#5254a3",
          .learning_ignores_time = true,
          .help = "PowerGossip: rank-r power-iteration projections of neighbour differences, "
                  "per edge, unicast"});
  AddAlgorithm<DecentralizedAlgorithm<QgadmmRule>>(
      r, {.name = "qgadmm",
          .color = "#843c39",
          .learning_ignores_time = true,
          .help = "Q-GADMM: group ADMM on a chain, heads then tails, b-bit stochastic "
                  "quantized model differences (closed-form primal)"});
  AddAlgorithm<DecentralizedAlgorithm<QgadmmRule>>(
      r,
      {.name = "qsgadmm",
       .color = "#d6616b",
       .learning_ignores_time = true,
       .help = "Q-SGADMM: Q-GADMM with local SGD steps for the primal (non-convex models)"},
      &QgadmmConfig::StochasticDefaults);
  AddAlgorithm<DecentralizedAlgorithm<SdmDsgdRule>>(
      r, {.name = "sdm_dsgd",
          .color = "#7b4173",
          .learning_ignores_time = true,
          .help = "SDM-DSGD [recon]: DSGD on public copies, Gaussian-masked differences sent "
                  "sparsified (rand_k)"});
}

// The collective family (algorithms/collective/).
void AddCollective(Registry<Algorithm>& r) {
  AddAlgorithm<CollectiveAlgorithm<AllReduceSgdRule>>(
      r, {.name = "allreduce_sgd",
          .baseline = true,
          .color = "#8c564b",
          .learning_ignores_time = true,
          .help = "collective: full-precision gradients all-reduced (ring, tree, "
                  "halving_doubling, hierarchical), no server"});
  AddAlgorithm<CollectiveAlgorithm<AllGatherCompressedRule>>(
      r, {.name = "allgather_compressed",
          .color = "#bcbd22",
          .learning_ignores_time = true,
          .help = "collective: every worker all-gathers everyone's compressed gradient "
                  "(optional error feedback)"});
  AddAlgorithm<CollectiveAlgorithm<AllReduceCompressedRule>>(
      r, {.name = "allreduce_compressed",
          .color = "#aec7e8",
          .learning_ignores_time = true,
          .help = "collective: rand_k with a seed all workers share, its kept values "
                  "all-reduced (optional error feedback)"});
  AddAlgorithm<CollectiveAlgorithm<PowerSgdRule>>(
      r, {.name = "powersgd",
          .color = "#393b79",
          .learning_ignores_time = true,
          .help = "collective: rank-r PowerSGD, P and Q all-reduced, error feedback"});
  AddAlgorithm<CollectiveAlgorithm<CocodSgdRule>>(
      r, {.name = "cocod_sgd",
          .color = "#637939",
          .learning_ignores_time = true,
          .help = "collective: CoCoD-SGD, the models all-reduced while each worker takes its "
                  "local steps"});
}

}  // namespace

const Registry<Algorithm>& AlgorithmRegistry() {
  static const Registry<Algorithm> registry = [] {
    Registry<Algorithm> r;
    AddParameterServer(r);
    AddParameterServerRelated(r);
    AddDecentralized(r);
    AddDecentralizedRelated(r);
    AddCollective(r);
    return r;
  }();
  return registry;
}

std::unique_ptr<Algorithm> MakeAlgorithm(std::string_view name, const Config& config) {
  const Registry<Algorithm>::Entry* entry = AlgorithmRegistry().Find(name);
  COMMSIM_CHECK(entry != nullptr, "no algorithm named {}", name);
  return entry->make(config);
}

}  // namespace commsim
