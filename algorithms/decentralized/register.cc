#include "algorithms/decentralized/register.h"

#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/dpsgd.h"

namespace commsim {

void AddDecentralizedAlgorithms(Registry<Algorithm>& r) {
  r.Add<DpsgdAlgorithm, DpsgdConfig>("dpsgd", "D-PSGD: gossip full models, local SGD step");
  r.Add<ChocoAlgorithm, ChocoConfig>(
      "choco", "CHOCO-SGD: gossip compressed model differences with error-compensated copies");
  r.Add<ChocoAlgorithm, ChocoConfig>(
      "malcom", "MALCOM-PSGD [recon]: CHOCO + dithered/source-coded residuals + l1 proximal step",
      &SetMalcomDefaults);
}

}  // namespace commsim
