// The workers' copies that the rules store once (algorithms/ps/replicas.h): with
// verify_replicas every worker keeps its own copy, the run gives the same points bit for bit as
// the shared copy, and a copy gone wrong is caught in the round it differs. Also: the scratch
// vectors the rules share between parties never mix a worker's encode with the server's sum.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/ps/diana.h"
#include "algorithms/ps/dore.h"
#include "algorithms/ps/doublesqueeze.h"
#include "algorithms/ps/memsgd.h"
#include "algorithms/ps/rule_test_util.h"
#include "algorithms/ps/sgd.h"
#include "compression/compressors/compressor_test_util.h"

namespace commsim {
namespace {

using testing::Play;
using testing::ProxOnlyObjective;

constexpr int kReplicasWorkers = 3;
constexpr int64_t kReplicasDim = 600;

// A rule with verify_replicas on or off, and the hook that reaches its copies.
struct Made {
  std::unique_ptr<PsRule> rule;
  std::function<Replicas&()> replicas;
};

template <class Rule>
Made Make(bool verify) {
  typename Rule::Config config;
  config.verify_replicas = verify;
  auto rule = std::make_unique<Rule>(config);
  Rule* raw = rule.get();
  return {std::move(rule), [raw]() -> Replicas& { return raw->replicas_for_test(); }};
}

struct Case {
  std::string name;
  std::function<Made(bool)> make;
};

std::vector<Case> Cases() {
  return {{"sgd", Make<SgdRule>},
          {"diana", Make<DianaRule>},
          {"memsgd", Make<MemSgdRule>},
          {"doublesqueeze", Make<DoubleSqueezeRule>},
          {"dore", Make<DoreRule>}};
}

std::vector<Eigen::VectorXd> Gradients(int round) {
  std::vector<Eigen::VectorXd> grads;
  for (int w = 0; w < kReplicasWorkers; ++w) {
    grads.push_back(compressor_test::Gaussian(kReplicasDim, 100 * round + w + 1));
  }
  return grads;
}

// `c`'s rule, verify_replicas on or off, initialised for the workers at one fixed random x0.
Made Started(const Case& c, bool verify, const Objective& objective) {
  Made made = c.make(verify);
  made.rule->Init(kReplicasWorkers, compressor_test::Gaussian(kReplicasDim, 7), objective);
  return made;
}

bool SameReplicaBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(double)) == 0;
}

TEST(ReplicasTest, VerifiedCopiesAgreeAndGiveTheSharedCopysPointsBitForBit) {
  const ProxOnlyObjective objective(kReplicasDim, 0.01);
  for (const Case& c : Cases()) {
    Made shared = Started(c, false, objective), verified = Started(c, true, objective);
    EXPECT_FALSE(shared.replicas().verify()) << c.name;
    for (int round = 0; round < 4; ++round) {
      Play(*shared.rule, Gradients(round), 0.05, round);
      ASSERT_NO_THROW(Play(*verified.rule, Gradients(round), 0.05, round)) << c.name;
      for (int w = 0; w < kReplicasWorkers; ++w) {
        EXPECT_TRUE(SameReplicaBits(shared.rule->WorkerPoint(w), verified.rule->WorkerPoint(w)))
            << c.name << " round " << round << " worker " << w;
        // A worker's own copy, not the shared one.
        EXPECT_NE(&verified.rule->WorkerPoint(w),
                  &verified.rule->WorkerPoint((w + 1) % kReplicasWorkers));
      }
      EXPECT_TRUE(SameReplicaBits(shared.rule->Model(), verified.rule->Model())) << c.name;
    }
  }
}

TEST(ReplicasTest, ACorruptedCopyIsCaughtNamingTheWorkerAndTheElement) {
  const ProxOnlyObjective objective(kReplicasDim, 0.0);
  for (const Case& c : Cases()) {
    Made made = Started(c, true, objective);
    Play(*made.rule, Gradients(0), 0.05, 0);
    made.replicas().CorruptForTest(1, 123);
    try {
      Play(*made.rule, Gradients(1), 0.05, 1);
      ADD_FAILURE() << c.name << ": the corrupted copy went unnoticed";
    } catch (const ReplicaMismatch& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("worker 1's"), std::string::npos) << what;
      EXPECT_NE(what.find("element 123"), std::string::npos) << what;
    }
  }
}

// A straggler encodes after the server has taken a faster worker's uplink (the driver calls
// ServerReceive as uplinks arrive): the round must be the one played in the plain order.
TEST(ReplicasTest, AnEncodeBetweenTwoServerReceivesLeavesTheRoundUnchanged) {
  const ProxOnlyObjective objective(kReplicasDim, 0.0);
  for (const Case& c : Cases()) {
    Made plain = Started(c, false, objective), interleaved = Started(c, false, objective);
    for (int round = 0; round < 2; ++round) {
      const std::vector<Eigen::VectorXd> grads = Gradients(round);
      const Message expected = Play(*plain.rule, grads, 0.05, round).downlink;
      Rng server(round, kReplicasWorkers, "downlink");
      for (int w = 0; w < kReplicasWorkers; ++w) {
        Rng rng(round, w, "uplink");
        Eigen::VectorXd grad = grads[w];  // the rule may overwrite it
        const Message uplink = interleaved.rule->WorkerEncode(w, grad, 0.05, rng);
        interleaved.rule->ServerReceive(w, uplink);
      }
      const Message downlink = interleaved.rule->ServerRound(0.05, server);
      for (int w = 0; w < kReplicasWorkers; ++w) interleaved.rule->WorkerReceive(w, downlink, 0.05);
      EXPECT_EQ(downlink.words, expected.words) << c.name << " round " << round;
      EXPECT_TRUE(SameReplicaBits(plain.rule->Model(), interleaved.rule->Model())) << c.name;
    }
  }
}

}  // namespace
}  // namespace commsim
