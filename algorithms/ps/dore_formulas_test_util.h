// DORE's state update written out for the rule-level tests (header only, test use): the worker
// shifts h_i, the server shift h, the error e, the model x and its replica x^, stepped one played
// round at a time from the formulas, independently of DoreRule:
//   Delta_i = g_i - h_i,  h_i <- h_i + alpha Q(Delta_i),  g^ = h + mean Q(Delta_i),
//   h <- h + alpha mean Q(Delta_i),  x = prox(x^ - gamma g^),  q = x - x^ + eta e,
//   e <- q - Q(q),  x^ <- x^ + beta Q(q).
// With `float32` the worker shifts are computed in double and rounded to float on store, the
// server's state follows the double formulas fed with those rounded values.
#ifndef COMMSIM_ALGORITHMS_PS_DORE_FORMULAS_TEST_UTIL_H_
#define COMMSIM_ALGORITHMS_PS_DORE_FORMULAS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "algorithms/ps/dore.h"
#include "algorithms/ps/rule_test_util.h"
#include "algorithms/registry.h"
#include "compression/compressors/block_ternary.h"

namespace commsim::testing {

// block_ternary with p = inf, blocks of `block`, fixed two-bit codes: not exact, seeded.
inline ComponentSpec TernarySpec(int64_t block) {
  ComponentSpec spec = CompressorSpec("block_ternary");
  auto& c = static_cast<BlockTernaryConfig&>(*spec.config);
  c.p = "inf";
  c.block = block;
  c.coding = "fixed2";
  return spec;
}

// The DORE rule the formula tests play: d = 4, n = 2, x0 = (1, -1, 0.5, 2), uplink TernarySpec(2),
// downlink TernarySpec(4) (set here over `config`'s), the proximal l1 weight `l1`; the rule is
// initialised, and `up`/`down` are the compressors the formulas replay the messages with.
struct DoreTrial : RuleTrial<DoreRule> {
  DoreTrial(DoreConfig config, double l1)
      : RuleTrial(WithTernaryLinks(std::move(config)), 2, V({1, -1, 0.5, 2}), l1) {}
  static DoreConfig WithTernaryLinks(DoreConfig config) {
    config.uplink = TernarySpec(2);
    config.downlink = TernarySpec(4);
    return config;
  }
};

struct DoreFormulas {
  struct Params {
    double alpha = 0, beta = 0, eta = 0, gamma = 0, l1 = 0;
    bool float32 = false;
  };

  DoreFormulas(const Params& p, int workers, const Eigen::VectorXd& x0)
      : params(p),
        h_w(workers, Eigen::VectorXd::Zero(x0.size())),
        h(Eigen::VectorXd::Zero(x0.size())),
        e(Eigen::VectorXd::Zero(x0.size())),
        x_hat(x0) {}

  // One round: `grads` as played in `r`, Q(.) re-encoded by `up`/`down` (SentQ).
  void Step(const PlayedRound& r, const std::vector<Eigen::VectorXd>& grads, const Compressor& up,
            const Compressor& down, const std::string& round) {
    const auto n = static_cast<double>(h_w.size());
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(h.size());
    grad_residual_sq = 0;
    rounded = false;
    deltas.clear();
    uplink_q.clear();
    for (size_t w = 0; w < h_w.size(); ++w) {
      deltas.push_back(grads[w] - h_w[w]);  // in double, from the stored h_i
      grad_residual_sq += deltas[w].squaredNorm() / n;
      uplink_q.push_back(SentQ(up, r.uplinks[w], deltas[w], r.uplink_rngs[w], round + " uplink"));
      const Eigen::VectorXd exact = h_w[w] + params.alpha * uplink_q[w];
      h_w[w] = params.float32 ? Eigen::VectorXd(exact.cast<float>().cast<double>()) : exact;
      rounded |= h_w[w] != exact;
      mean += uplink_q[w] / n;
    }
    const Eigen::VectorXd g_hat = h + mean;  // with the old h
    h += params.alpha * mean;
    x = Soft(x_hat - params.gamma * g_hat, params.gamma * params.l1);
    q = x - x_hat + params.eta * e;  // the model residual with error feedback
    const Eigen::VectorXd q_hat = SentQ(down, r.downlink, q, r.downlink_rng, round + " downlink");
    e = q - q_hat;
    x_hat += params.beta * q_hat;
  }

  Params params;
  std::vector<Eigen::VectorXd> h_w;  // worker shifts, as stored
  Eigen::VectorXd h, e, x_hat, x, q;
  // Of the last round:
  std::vector<Eigen::VectorXd> deltas, uplink_q;  // Delta_i and Q(Delta_i)
  double grad_residual_sq = 0;                    // mean ||Delta_i||^2
  bool rounded = false;                           // some stored h_i differs from its exact value
};

}  // namespace commsim::testing

#endif  // COMMSIM_ALGORITHMS_PS_DORE_FORMULAS_TEST_UTIL_H_
