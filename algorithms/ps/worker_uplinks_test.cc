// WorkerUplinks on several threads against the plain sequential loop (each worker's gradient and
// WorkerEncode in worker order, one shared gradient buffer): the same uplinks bit for bit, the
// same models and metrics after every round, for every registered PS rule (and float32 variants),
// with and without buckets; the streamed paths (SGD's uplink, DORE's worker) the same as the stored
// gradient's, failures included; and a worker's failure kept for that worker alone.
#include "algorithms/ps/worker_uplinks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/ps/dore.h"
#include "algorithms/ps/memsgd.h"
#include "algorithms/ps/ps_driver.h"
#include "algorithms/ps/sgd.h"
#include "algorithms/registered_rules_test_util.h"
#include "algorithms/test_objective.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor.h"
#include "models/objective.h"
#include "models/problem.h"
#include "models/registry.h"
#include "models/synthetic_quadratic.h"

namespace commsim {
namespace {

constexpr int kUplinkWorkers = 5;  // not a multiple of the thread count
constexpr int64_t kUplinkDim = 600;

// f_w(x) = 1/2 ||x - c_w||^2 with a noisy gradient (the noise drawn from the batch Rng, so the
// streams must reach the right worker); worker `nan_worker` returns NaN in round `nan_round`.
class UplinksNoisyQuadratic final : public test_objective::TestObjective {
 public:
  UplinksNoisyQuadratic() : TestObjective("noisy_quadratic", kUplinkDim, kUplinkWorkers, 10) {}
  double Gradient(int w, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t, Rng& rng,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    for (int64_t j = 0; j < kUplinkDim; ++j) {
      grad[j] = x[j] - std::sin(static_cast<double>(w * kUplinkDim + j)) + 0.1 * rng.Normal();
    }
    if (w == nan_worker && x[0] == nan_at_x0) grad[3] = NAN;
    return 0;
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const override { return x.squaredNorm(); }

  int nan_worker = -1;
  double nan_at_x0 = 0;  // the worker's gradient is NaN where x[0] equals this
};

struct UplinkRuleCase {
  std::string name;
  std::function<std::unique_ptr<PsRule>()> make;
};

// Every registered parameter-server rule with its default config, then variants worth a look.
std::vector<UplinkRuleCase> UplinkRuleCases() {
  std::vector<UplinkRuleCase> cases;
  for (auto& rule : testing::RegisteredRules<PsFamily>()) cases.push_back({rule.name, rule.make});
  DoreConfig dore32;
  dore32.precision = "float32";
  MemSgdConfig memsgd32;
  memsgd32.precision = "float32";
  cases.push_back({"dore float32", [dore32] { return std::make_unique<DoreRule>(dore32); }});
  cases.push_back(
      {"memsgd float32", [memsgd32] { return std::make_unique<MemSgdRule>(memsgd32); }});
  return cases;
}

bool UplinksSameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

RunSetup UplinksSetupFor(const Objective& objective, int threads) {
  RunSetup setup;
  setup.seed = 11;
  setup.objective = &objective;
  setup.batch = 4;
  setup.threads = threads;
  return setup;
}

// The server's half of a round and the workers' downlink, the same for both rules.
void UplinksFinishRound(PsRule& rule, const std::vector<Message>& uplinks, double step,
                        Rng& server) {
  for (int w = 0; w < kUplinkWorkers; ++w) rule.ServerReceive(w, uplinks[w]);
  const Message down = rule.ServerRound(step, server);
  for (int w = 0; w < kUplinkWorkers; ++w) rule.WorkerReceive(w, down, step);
}

// `streams` (1 or 0; -1: not checked): whether the driver must have streamed every uplink (its
// first gradient buffer never written; with one thread, the buffer every worker uses).
void ExpectUplinksEqualSequential(const Objective& objective, const UplinkRuleCase& c,
                                  const std::vector<Segment>& buckets, int threads,
                                  int streams = -1) {
  const int64_t dim = objective.dim();
  const RunSetup setup = UplinksSetupFor(objective, threads);
  std::unique_ptr<PsRule> plain = c.make(), parallel = c.make();
  plain->SetBuckets(buckets);
  parallel->SetBuckets(buckets);
  const Eigen::VectorXd x0 = Eigen::VectorXd::Constant(dim, 0.05);
  plain->Init(kUplinkWorkers, x0, objective);
  parallel->Init(kUplinkWorkers, x0, objective);
  WorkerUplinks uplinks(setup, *parallel);
  std::vector<Rng> batch, encode;
  for (int w = 0; w < kUplinkWorkers; ++w) {
    batch.emplace_back(setup.seed, w, "batch");
    encode.emplace_back(setup.seed, w, "uplink");
  }
  Rng server_a(3), server_b(3);
  Eigen::VectorXd grad(dim);
  const std::string what = std::string(objective.Name()) + ", " + c.name + ", " +
                           std::to_string(threads) + " threads, " + std::to_string(buckets.size()) +
                           " buckets";
  for (int round = 0; round < 4; ++round) {
    const double step = 0.1 / (round + 1);
    std::vector<Message> expected(kUplinkWorkers), got(kUplinkWorkers);
    for (int w = 0; w < kUplinkWorkers; ++w) {
      objective.Gradient(w, plain->WorkerPoint(w), setup.batch, batch[w], grad);
      expected[w] = plain->WorkerEncode(w, grad, step, encode[w]);
    }
    if (streams >= 0) uplinks.FreeBuffer().setConstant(7.0);
    uplinks.Compute(step);
    if (streams >= 0) {
      EXPECT_EQ(uplinks.FreeBuffer() == Eigen::VectorXd::Constant(dim, 7.0), streams == 1) << what;
    }
    for (int w = 0; w < kUplinkWorkers; ++w) {
      double wall_s = -1;
      got[w] = uplinks.Take(w, &wall_s);
      EXPECT_GE(wall_s, 0.0);
      EXPECT_EQ(got[w].payload_bits, expected[w].payload_bits) << what << ", worker " << w;
      EXPECT_EQ(got[w].words, expected[w].words) << what << ", round " << round << ", worker " << w;
      if (const auto* dore = dynamic_cast<const DoreRule*>(plain.get())) {  // and its state
        const Eigen::VectorXd shift = dynamic_cast<const DoreRule&>(*parallel).shift(w);
        EXPECT_TRUE(UplinksSameBits(dore->shift(w), shift)) << what << ", worker " << w;
      }
    }
    UplinksFinishRound(*plain, expected, step, server_a);
    UplinksFinishRound(*parallel, got, step, server_b);
    EXPECT_TRUE(UplinksSameBits(plain->Model(), parallel->Model())) << what << ", round " << round;
    std::map<std::string, double> extra_a, extra_b;
    plain->Extra(extra_a);
    parallel->Extra(extra_b);
    EXPECT_EQ(extra_a, extra_b) << what << ", round " << round;
  }
}

TEST(WorkerUplinksTest, ParallelEncodesEqualTheSequentialLoopForEveryRule) {
  const UplinksNoisyQuadratic objective;
  const std::vector<Segment> buckets = {{0, 100}, {100, 350}, {450, 150}};
  for (const UplinkRuleCase& c : UplinkRuleCases()) {
    for (const int threads : {1, 3, 8}) {
      ExpectUplinksEqualSequential(objective, c, {}, threads);
    }
    ExpectUplinksEqualSequential(objective, c, buckets, 3);
  }
}

// The shipped objectives' gradients on mini-batches (linear regression; an MLP on wine).
TEST(WorkerUplinksTest, ParallelEncodesEqualTheSequentialLoopOnShippedModels) {
  ProblemSpec regression = DefaultProblemSpec();
  ProblemSpec mlp = DefaultProblemSpec();
  mlp.model = ModelRegistry().DefaultSpec(kModelKind, "mlp");
  mlp.data = DatasetRegistry().DefaultSpec(kDatasetKind, "wine");
  for (const ProblemSpec* spec : {&regression, &mlp}) {
    const std::shared_ptr<const Objective> objective = BuildProblem(*spec, kUplinkWorkers, 1);
    for (const UplinkRuleCase& c : UplinkRuleCases()) {
      ExpectUplinksEqualSequential(*objective, c, {}, 3);
    }
  }
}

// The synthetic quadratic streams its gradient (noisy: the batch Rng draws) and SGD's identity
// uplink takes it chunk by chunk: the same uplinks as the sequential loop, and the gradient buffer
// never written; a rule that needs the stored gradient (MEM-SGD) still gets it.
SyntheticQuadratic StreamingQuadratic() {
  SyntheticQuadraticConfig config;
  config.dim = 2500;  // not a multiple of the 1024-coordinate chunks
  config.noise = 0.5;
  return SyntheticQuadratic(config, kUplinkWorkers, 3);
}

TEST(WorkerUplinksTest, SgdStreamsTheGradientIntoItsUplink) {
  const SyntheticQuadratic objective = StreamingQuadratic();
  for (const UplinkRuleCase& c : UplinkRuleCases()) {
    for (const int threads : {1, 2, 3, 8}) ExpectUplinksEqualSequential(objective, c, {}, threads);
  }
  for (const bool streams : {true, false}) {
    std::unique_ptr<PsRule> rule = streams
                                       ? std::unique_ptr<PsRule>(new SgdRule(SgdConfig{}))
                                       : std::unique_ptr<PsRule>(new MemSgdRule(MemSgdConfig{}));
    const RunSetup setup = UplinksSetupFor(objective, 1);
    WorkerUplinks uplinks(setup, *rule);
    rule->Init(kUplinkWorkers, Eigen::VectorXd::Constant(2500, 0.5), objective);
    uplinks.FreeBuffer().setConstant(7.0);
    uplinks.Compute(0.1);
    EXPECT_EQ(uplinks.FreeBuffer() == Eigen::VectorXd::Constant(2500, 7.0), streams);
  }
}

// A streamed gradient that cannot go on the wire fails as the stored one does: a non-finite
// gradient with the gradient's error, a finite one beyond fp32 with the uplink encoder's, as
// WorkerEncode on the stored gradient throws it (SGD's identity; DORE's block_ternary, whose
// streamed worker has updated its shift for the blocks before the bad value: the error is that of
// a rule that never streamed).
TEST(WorkerUplinksTest, AStreamedGradientFailsAsTheStoredOne) {
  const SyntheticQuadratic objective = StreamingQuadratic();
  for (const UplinkRuleCase& c : UplinkRuleCases()) {
    if (c.name != "sgd" && c.name != "dore") continue;
    for (const double bad : {double{INFINITY}, 1e39}) {
      std::unique_ptr<PsRule> rule = c.make(), stored = c.make();
      Eigen::VectorXd x0 = Eigen::VectorXd::Constant(2500, 0.5);
      x0[1800] = bad;
      rule->Init(kUplinkWorkers, x0, objective);
      stored->Init(kUplinkWorkers, x0, objective);
      const RunSetup setup = UplinksSetupFor(objective, 2);
      WorkerUplinks uplinks(setup, *rule);
      uplinks.Compute(0.1);
      for (int w = 0; w < kUplinkWorkers; ++w) {
        std::string expected = "worker " + std::to_string(w) + "'s gradient has a non-finite value";
        if (bad == 1e39) {
          Eigen::VectorXd grad(2500);
          Rng batch(setup.seed, w, "batch"), encode(setup.seed, w, "uplink");
          objective.Gradient(w, x0, setup.batch, batch, grad);
          try {
            stored->WorkerEncode(w, grad, 0.1, encode);
            ADD_FAILURE() << c.name << ": a value beyond fp32 was encoded";
          } catch (const NonFiniteError& e) {
            expected = e.what();
          }
        }
        double wall_s = 0;
        try {
          uplinks.Take(w, &wall_s);
          ADD_FAILURE() << c.name << ": worker " << w << "'s gradient was encoded";
        } catch (const NonFiniteError& e) {
          EXPECT_EQ(std::string(e.what()), expected) << c.name;
        }
      }
    }
  }
}

// DORE's streamed worker (DoreRule::WorkerChunkEncoder, the synthetic quadratic streaming its
// gradients) against the stored gradient's WorkerEncode: every uplink, every worker's shift h_w,
// the residual metrics and the model bit for bit, round after round, for the block_ternary
// uplinks it streams and the ones it leaves to WorkerEncode.
TEST(WorkerUplinksTest, DoresStreamedWorkersEqualTheUnstreamedPathBitForBit) {
  const auto dore = [](const std::string& coding, const std::string& rng, int64_t block,
                       const std::string& precision) {
    DoreConfig config;
    auto& uplink = static_cast<BlockTernaryConfig&>(*config.uplink.config);
    uplink.coding = coding;
    uplink.rng = rng;
    uplink.block = block;
    config.precision = precision;
    const std::string name = coding + " " + rng + " b=" + std::to_string(block) + " " + precision;
    return UplinkRuleCase{name, [config] { return std::make_unique<DoreRule>(config); }};
  };
  const auto quadratic = [](int64_t dim) {
    SyntheticQuadraticConfig config;
    config.dim = dim;
    config.noise = 0.5;  // the batch Rngs draw
    return SyntheticQuadratic(config, kUplinkWorkers, 3);
  };
  const int64_t chunk = SyntheticQuadratic::kChunk;
  // One element, a block and a tail, across the chunk, two chunks and a tail.
  for (const int64_t dim : {int64_t{1}, int64_t{300}, chunk + 1, 2 * chunk + 300}) {
    for (const int threads : {1, 2}) {
      ExpectUplinksEqualSequential(quadratic(dim), dore("fixed2", "stream", 256, "float64"), {},
                                   threads, 1);
    }
  }
  const SyntheticQuadratic objective = quadratic(chunk + 1000);
  for (const std::string coding : {"fixed2", "packed", "sparse"}) {
    for (const std::string rng : {"stream", "counter"}) {
      for (const int64_t block : {256, 100}) {
        ExpectUplinksEqualSequential(objective, dore(coding, rng, block, "float64"), {}, 2, 1);
      }
    }
  }
  // Left to WorkerEncode: the entropy coding, float32 shifts.
  ExpectUplinksEqualSequential(objective, dore("entropy", "stream", 256, "float64"), {}, 1, 0);
  ExpectUplinksEqualSequential(objective, dore("fixed2", "stream", 256, "float32"), {}, 1, 0);
}

TEST(WorkerUplinksTest, ANonFiniteGradientFailsThatWorkerOnly) {
  UplinksNoisyQuadratic objective;
  objective.nan_worker = 2;
  objective.nan_at_x0 = 0.5;  // the initial point
  const RunSetup setup = UplinksSetupFor(objective, 3);
  DoreRule rule{DoreConfig{}};
  rule.Init(kUplinkWorkers, Eigen::VectorXd::Constant(kUplinkDim, 0.5), objective);
  WorkerUplinks uplinks(setup, rule);
  uplinks.Compute(0.1);
  double wall_s = 0;
  for (int w = 0; w < kUplinkWorkers; ++w) {
    if (w != 2) {
      EXPECT_GT(uplinks.Take(w, &wall_s).payload_bits, 0) << w;
      continue;
    }
    try {
      uplinks.Take(w, &wall_s);
      ADD_FAILURE() << "worker 2's NaN gradient was encoded";
    } catch (const NonFiniteError& e) {
      EXPECT_EQ(std::string(e.what()), "worker 2's gradient has a non-finite value");
    }
  }
  EXPECT_EQ(rule.shift(2), Eigen::VectorXd::Zero(kUplinkDim)) << "worker 2's state changed";
  EXPECT_NE(rule.shift(1), Eigen::VectorXd::Zero(kUplinkDim));
}

TEST(WorkerUplinksTest, MeanInWorkerOrderAddsEachValueOverNInOrder) {
  // 0.1/3 + 0.2/3 + 0.3/3, added left to right.
  const double expected = (0.1 / 3.0 + 0.2 / 3.0) + 0.3 / 3.0;
  EXPECT_EQ(MeanInWorkerOrder({0.1, 0.2, 0.3}), expected);
}

// Every PS rule has a server scratch (its uplink sum) and lends it as the first gradient buffer,
// so the driver keeps no d-vector of its own for it; a rule without one gets the driver's.
TEST(WorkerUplinksTest, FirstGradientBufferIsTheRulesServerScratch) {
  UplinksNoisyQuadratic objective;
  const RunSetup setup = UplinksSetupFor(objective, 1);
  for (const UplinkRuleCase& c : UplinkRuleCases()) {
    std::unique_ptr<PsRule> rule = c.make();
    ASSERT_NE(rule->ServerScratch(), nullptr) << c.name;
    WorkerUplinks uplinks(setup, *rule);
    EXPECT_EQ(&uplinks.FreeBuffer(), rule->ServerScratch()) << c.name;
    EXPECT_EQ(uplinks.FreeBuffer().size(), kUplinkDim) << c.name;
  }
  struct NoScratchRule final : PsRule {
    Eigen::VectorXd x;
    void Init(int, const ConstVec& x0, const Objective&) override { x = x0; }
    const Eigen::VectorXd& WorkerPoint(int) const override { return x; }
    Message WorkerEncode(int, GradVec, double, Rng&) override { return Message{}; }
    void ServerReceive(int, const Message&) override {}
    Message ServerRound(double, Rng&) override { return Message{}; }
    void WorkerReceive(int, const Message&, double) override {}
    const Eigen::VectorXd& Model() const override { return x; }
  } plain;
  WorkerUplinks uplinks(setup, plain);
  EXPECT_EQ(uplinks.FreeBuffer().size(), kUplinkDim);
  EXPECT_NE(&uplinks.FreeBuffer(), &plain.x);
}

}  // namespace
}  // namespace commsim
