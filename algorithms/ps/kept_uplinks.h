// KeptUplinks: a server rule's one-pass round. When the driver hands over every uplink of the
// round at once (PsRule::ServerReceiveRun), the rule keeps them instead of adding them to its sum;
// its round then takes the sum chunk by chunk from the uplink compressor
// (Compressor::DecodeSumFromZero) and uses each chunk while it is in cache, so the sum is never
// stored whole. The messages stay valid until the rule's ServerRound has returned (ps_rule.h).
#ifndef COMMSIM_ALGORITHMS_PS_KEPT_UPLINKS_H_
#define COMMSIM_ALGORITHMS_PS_KEPT_UPLINKS_H_

#include <Eigen/Core>
#include <span>
#include <vector>

#include "compression/compressors/compressor.h"

namespace commsim {

class KeptUplinks {
 public:
  // Keeps `uplinks` (from worker w on) when they are the whole round of `workers` > 1 workers
  // (the measured codec mode hands them over one at a time); returns whether it kept them.
  bool KeepIfWholeRound(int w, std::span<const Message* const> uplinks, int workers) {
    if (w != 0 || static_cast<int>(uplinks.size()) != workers || workers <= 1) return false;
    kept_.assign(uplinks.begin(), uplinks.end());
    return true;
  }
  // Calls fn(begin, end, sum) over the sum of the kept uplinks, chunk by chunk, `scratch` being
  // the compressor's (DecodeSumFromZero), then forgets them; with none kept, calls fn once over
  // the whole of `scratch`, which then holds the sum already. REQUIRES: scratch has dimension d.
  void ForEachSumChunk(const Compressor& uplink, Eigen::Ref<Eigen::VectorXd> scratch,
                       const Compressor::SumChunkDone& fn) {
    if (kept_.empty()) {
      fn(0, scratch.size(), scratch.data());
      return;
    }
    uplink.DecodeSumFromZero(kept_, scratch, fn);
    kept_.clear();
  }
  void Clear() { kept_.clear(); }

 private:
  std::vector<const Message*> kept_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_KEPT_UPLINKS_H_
