// Replicas: the copies of one vector that several parties hold bit-identical by construction
// (every worker's x^ in DORE, every worker's model in the model-broadcast rules and
// DoubleSqueeze). Every party computes its copy from the same decoded messages with the same
// arithmetic as a reference copy the rule keeps anyway, so by default the copies are not stored:
// a party reads the reference (one d-vector for all workers instead of one each).
// With `verify` (the rules' `verify_replicas` option, a debug aid) every party keeps and
// updates its own copy as the algorithm describes, and Check compares it with the reference bit
// for bit after each update; a difference throws ReplicaMismatch, which ends the run with
// status "error" and names the party and the first differing element.
#ifndef COMMSIM_ALGORITHMS_PS_REPLICAS_H_
#define COMMSIM_ALGORITHMS_PS_REPLICAS_H_

#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <vector>

namespace commsim {

// A replica differs from its reference: a bug in a rule, never bad input.
class ReplicaMismatch : public std::logic_error {
 public:
  explicit ReplicaMismatch(const std::string& message) : std::logic_error(message) {}
};

class Replicas {
 public:
  // `what` names the vector in messages (e.g. "x^"). Without verify no copy is stored.
  void Init(int parties, const Eigen::Ref<const Eigen::VectorXd>& x0, bool verify,
            std::string what);
  bool verify() const { return !copies_.empty(); }
  // Party w's copy: its own when verifying, else `reference`.
  const Eigen::VectorXd& Get(int w, const Eigen::VectorXd& reference) const {
    return copies_.empty() ? reference : copies_[static_cast<size_t>(w)];
  }
  // Party w's own copy. REQUIRES: verify().
  Eigen::VectorXd& Own(int w);
  // Throws ReplicaMismatch unless party w's copy equals `reference` bit for bit.
  // REQUIRES: verify().
  void Check(int w, const Eigen::VectorXd& reference);
  // Test hook: the next Check of party w first flips the lowest bit of element `element` of its
  // copy (a replica gone wrong mid-run), so tests can show that Check catches it. Survives Init.
  void CorruptForTest(int w, int64_t element) { fault_ = {w, element}; }

 private:
  struct Fault {
    int party = -1;
    int64_t element = 0;
  };
  std::vector<Eigen::VectorXd> copies_;
  std::string what_;
  Fault fault_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_REPLICAS_H_
