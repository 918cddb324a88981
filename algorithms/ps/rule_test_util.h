// Helpers for the rule-level state tests of the parameter-server rules (header only, test use).
//
// The tests hand each worker a gradient written out in the test, play one round of the PsRule
// contract (every WorkerEncode, every ServerReceive, ServerRound, every WorkerReceive) and compare
// the rule's state with its update formula evaluated by hand. Q(v) comes from an independent
// instance of the compressor: SentQ re-encodes the vector the formula says was compressed, from a
// copy of the Rng the rule was given, checks the rule sent exactly those bits, and returns the
// decoded Q(v).
#ifndef COMMSIM_ALGORITHMS_PS_RULE_TEST_UTIL_H_
#define COMMSIM_ALGORITHMS_PS_RULE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/ps/ps_rule.h"
#include "algorithms/registry.h"
#include "algorithms/test_objective.h"
#include "models/objective.h"

namespace commsim::testing {

// An objective that supplies only the proximal operator (l1 weight `l1`); the tests pass the
// gradients themselves.
class ProxOnlyObjective final : public test_objective::TestObjective {
 public:
  ProxOnlyObjective(int64_t dim, double l1) : TestObjective("prox_only", dim, 1), l1_(l1) {}
  double Gradient(int, const Eigen::Ref<const Eigen::VectorXd>&, int64_t, Rng&,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    ADD_FAILURE() << "the rule tests supply the gradients";
    grad.setZero();
    return 0.0;
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>&) const override { return 0.0; }
  double l1() const override { return l1_; }

 private:
  double l1_;
};

// A vector from a list of numbers: V({1, -2, 0.5}).
inline Eigen::VectorXd V(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v[i++] = x;
  return v;
}

// soft_threshold(v, t) = sign(v) max(|v| - t, 0), written out for the tests' proximal steps.
inline Eigen::VectorXd Soft(const Eigen::VectorXd& v, double t) {
  Eigen::VectorXd out(v.size());
  for (Eigen::Index j = 0; j < v.size(); ++j) {
    const double a = std::abs(v[j]) - t;
    out[j] = a > 0 ? (v[j] < 0 ? -a : a) : 0.0;
  }
  return out;
}

// A rule under test: `Rule` built from `config` and initialised for `workers` workers at `start`
// (kept as x0), with a ProxOnlyObjective of l1 weight `l1` in x0's dimension; `up` and `down` are
// independent instances of config's link compressors, for the formulas to replay messages with.
template <class Rule>
struct RuleTrial {
  RuleTrial(const typename Rule::Config& config, int workers, Eigen::VectorXd start, double l1)
      : objective(start.size(), l1),
        x0(std::move(start)),
        rule(config),
        up(CompressorRegistry().Make(config.uplink)),
        down(CompressorRegistry().Make(config.downlink)) {
    rule.Init(workers, x0, objective);
  }

  const ProxOnlyObjective objective;
  const Eigen::VectorXd x0;
  Rule rule;
  const std::unique_ptr<Compressor> up, down;
};

// The messages of one round and the Rng states each party was handed.
struct PlayedRound {
  std::vector<Message> uplinks;
  std::vector<Rng> uplink_rngs;  // worker w's Rng as it was before WorkerEncode
  Message downlink;
  Rng downlink_rng{0};  // the server's Rng as it was before ServerRound
};

// Plays one round with worker w's gradient grads[w]; the Rngs are seeded from `seed`.
inline PlayedRound Play(PsRule& rule, const std::vector<Eigen::VectorXd>& grads, double step,
                        uint64_t seed) {
  PlayedRound round;
  const int n = static_cast<int>(grads.size());
  for (int w = 0; w < n; ++w) {
    Rng rng(seed, w, "uplink");
    round.uplink_rngs.push_back(rng);
    Eigen::VectorXd grad = grads[w];  // the rule may overwrite it
    round.uplinks.push_back(rule.WorkerEncode(w, grad, step, rng));
  }
  Rng server(seed, n, "downlink");
  round.downlink_rng = server;
  for (int w = 0; w < n; ++w) rule.ServerReceive(w, round.uplinks[w]);
  round.downlink = rule.ServerRound(step, server);
  for (int w = 0; w < n; ++w) rule.WorkerReceive(w, round.downlink, step);
  return round;
}

// Q(v) as `q` encodes it from `rng_before`; expects `sent` to be exactly that message.
inline Eigen::VectorXd SentQ(const Compressor& q, const Message& sent, const Eigen::VectorXd& v,
                             Rng rng_before, const std::string& what) {
  const Message expected = q.Encode(v, rng_before);
  EXPECT_EQ(sent.payload_bits, expected.payload_bits) << what;
  EXPECT_EQ(sent.words, expected.words) << what << ": the rule compressed another vector";
  Eigen::VectorXd out(v.size());
  q.Decode(expected, out);
  return out;
}

// The rule's Extra() column `key` (0 and a test failure when it has none).
inline double ExtraOf(const PsRule& rule, const std::string& key) {
  std::map<std::string, double> extra;
  rule.Extra(extra);
  const auto it = extra.find(key);
  if (it == extra.end()) {
    ADD_FAILURE() << "no extra column " << key;
    return 0.0;
  }
  return it->second;
}

// Max |a - b|, with a size check.
inline double MaxDiff(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  EXPECT_EQ(a.size(), b.size());
  if (a.size() != b.size()) return 1e300;
  return (a - b).cwiseAbs().maxCoeff();
}

}  // namespace commsim::testing

#endif  // COMMSIM_ALGORITHMS_PS_RULE_TEST_UTIL_H_
