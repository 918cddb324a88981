// DORE's streamed worker (DoreRule::WorkerChunkEncoder through WorkerUplinks, the synthetic
// quadratic streaming its gradients) against the unstreamed path (the gradient stored, then
// WorkerEncode, in a plain loop on a second rule): every uplink, every worker's shift h_w, the
// residual metrics and the model bit for bit, round after round, for the block_ternary uplinks it
// streams and the ones it leaves to WorkerEncode; and a gradient or a residual that cannot go on
// the wire fails with the unstreamed path's error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "algorithms/compressors/block_ternary.h"
#include "algorithms/ps/dore.h"
#include "algorithms/ps/worker_uplinks.h"
#include "models/synthetic_quadratic.h"
#include "sim/error.h"

namespace commsim {
namespace {

constexpr int kDoreStreamWorkers = 5;

SyntheticQuadratic DoreStreamQuadratic(int64_t dim) {
  SyntheticQuadraticConfig config;
  config.dim = dim;
  config.noise = 0.5;  // the batch Rngs draw
  return SyntheticQuadratic(config, kDoreStreamWorkers, 3);
}

RunSetup DoreStreamSetup(const Objective& objective, int threads) {
  RunSetup setup;
  setup.seed = 5;
  setup.objective = &objective;
  setup.batch = 4;
  setup.threads = threads;
  return setup;
}

bool DoreStreamSameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         (a.size() == 0 ||
          std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0);
}

DoreConfig DoreWithUplink(const std::string& coding, const std::string& rng, int64_t block,
                          const std::string& precision) {
  DoreConfig config;
  auto& uplink = static_cast<BlockTernaryConfig&>(*config.uplink.config);
  uplink.coding = coding;
  uplink.rng = rng;
  uplink.block = block;
  config.precision = precision;
  return config;
}

// Four rounds of `config` both ways on a quadratic of dimension `dim`; `streams`: whether the
// driver must have streamed (its gradient buffer never written).
void ExpectStreamedRoundsEqualUnstreamed(const DoreConfig& config, int64_t dim, int threads,
                                         bool streams, const std::string& what) {
  const SyntheticQuadratic objective = DoreStreamQuadratic(dim);
  const RunSetup setup = DoreStreamSetup(objective, threads);
  DoreRule plain(config), streamed(config);
  const Eigen::VectorXd x0 = Eigen::VectorXd::Constant(dim, 0.25);
  plain.Init(kDoreStreamWorkers, x0, objective);
  streamed.Init(kDoreStreamWorkers, x0, objective);
  WorkerUplinks uplinks(setup, streamed);
  std::vector<Rng> batch, encode;
  for (int w = 0; w < kDoreStreamWorkers; ++w) {
    batch.emplace_back(setup.seed, w, "batch");
    encode.emplace_back(setup.seed, w, "uplink");
  }
  Rng server_a(9), server_b(9);
  Eigen::VectorXd grad(dim);
  for (int round = 0; round < 4; ++round) {
    const std::string at = what + ", round " + std::to_string(round);
    const double step = 0.2 / (round + 1);
    uplinks.FreeBuffer().setConstant(7.0);
    uplinks.Compute(step);
    EXPECT_EQ(uplinks.FreeBuffer() == Eigen::VectorXd::Constant(dim, 7.0), streams) << at;
    std::vector<Message> expected(kDoreStreamWorkers), got(kDoreStreamWorkers);
    for (int w = 0; w < kDoreStreamWorkers; ++w) {
      objective.Gradient(w, plain.WorkerPoint(w), setup.batch, batch[w], grad);
      expected[w] = plain.WorkerEncode(w, grad, step, encode[w]);
      double wall_s = 0;
      got[w] = uplinks.Take(w, &wall_s);
      EXPECT_EQ(got[w].payload_bits, expected[w].payload_bits) << at << ", worker " << w;
      EXPECT_EQ(got[w].words, expected[w].words) << at << ", worker " << w;
      EXPECT_EQ(got[w].codec, expected[w].codec) << at;
      EXPECT_EQ(got[w].elements, expected[w].elements) << at;
      EXPECT_TRUE(DoreStreamSameBits(streamed.shift(w), plain.shift(w))) << at << ", worker " << w;
    }
    for (int w = 0; w < kDoreStreamWorkers; ++w) {
      plain.ServerReceive(w, expected[w]);
      streamed.ServerReceive(w, got[w]);
    }
    const Message down_a = plain.ServerRound(step, server_a);
    const Message down_b = streamed.ServerRound(step, server_b);
    EXPECT_EQ(down_a.words, down_b.words) << at;
    for (int w = 0; w < kDoreStreamWorkers; ++w) {
      plain.WorkerReceive(w, down_a, step);
      streamed.WorkerReceive(w, down_b, step);
    }
    EXPECT_TRUE(DoreStreamSameBits(plain.Model(), streamed.Model())) << at;
    std::map<std::string, double> extra_a, extra_b;
    plain.Extra(extra_a);
    streamed.Extra(extra_b);
    EXPECT_EQ(extra_a, extra_b) << at;  // grad_residual_sq: the mean of the workers' ||d_i||^2
  }
}

TEST(DoreStreamTest, StreamedWorkersEqualTheUnstreamedPathBitForBit) {
  const int64_t chunk = SyntheticQuadratic::kChunk;
  // One element, a block and a tail, across the chunk, two chunks and a tail.
  for (const int64_t dim : {int64_t{1}, int64_t{300}, chunk + 1, 2 * chunk + 300}) {
    for (const int threads : {1, 2}) {
      ExpectStreamedRoundsEqualUnstreamed(DoreConfig{}, dim, threads, true,
                                          "default, d " + std::to_string(dim) + ", threads " +
                                              std::to_string(threads));
    }
  }
  const int64_t dim = chunk + 1000;
  for (const std::string coding : {"fixed2", "packed", "sparse"}) {
    for (const std::string rng : {"stream", "counter"}) {
      for (const int64_t block : {256, 100}) {
        ExpectStreamedRoundsEqualUnstreamed(DoreWithUplink(coding, rng, block, "float64"), dim, 2,
                                            true, coding + " " + rng + " b=" +
                                                      std::to_string(block));
      }
    }
  }
  // Left to WorkerEncode: the entropy coding, float32 shifts.
  ExpectStreamedRoundsEqualUnstreamed(DoreWithUplink("entropy", "stream", 256, "float64"), dim, 2,
                                      false, "entropy");
  ExpectStreamedRoundsEqualUnstreamed(DoreWithUplink("fixed2", "stream", 256, "float32"), dim, 2,
                                      false, "float32");
}

// A non-finite gradient fails with the gradient's error; a finite one whose residual is beyond
// fp32 with the encoder's, as the unstreamed WorkerEncode throws it.
TEST(DoreStreamTest, AStreamedWorkerFailsAsTheUnstreamedOne) {
  const int64_t dim = SyntheticQuadratic::kChunk + 500;
  const SyntheticQuadratic objective = DoreStreamQuadratic(dim);
  for (const double bad : {double{INFINITY}, 1e39}) {
    Eigen::VectorXd x0 = Eigen::VectorXd::Constant(dim, 0.5);
    x0[SyntheticQuadratic::kChunk + 300] = bad;
    DoreRule rule{DoreConfig{}}, fresh{DoreConfig{}};
    rule.Init(kDoreStreamWorkers, x0, objective);
    fresh.Init(kDoreStreamWorkers, x0, objective);
    const RunSetup setup = DoreStreamSetup(objective, 2);
    WorkerUplinks uplinks(setup, rule);
    uplinks.Compute(0.1);
    for (int w = 0; w < kDoreStreamWorkers; ++w) {
      std::string expected = "worker " + std::to_string(w) + "'s gradient has a non-finite value";
      if (bad == 1e39) {
        Eigen::VectorXd grad(dim);
        Rng batch(setup.seed, w, "batch"), encode(setup.seed, w, "uplink");
        objective.Gradient(w, x0, setup.batch, batch, grad);
        try {
          fresh.WorkerEncode(w, grad, 0.1, encode);
          ADD_FAILURE() << "a residual beyond fp32 was encoded";
        } catch (const NonFiniteError& e) {
          expected = e.what();
        }
      }
      double wall_s = 0;
      try {
        uplinks.Take(w, &wall_s);
        ADD_FAILURE() << "worker " << w << "'s uplink was encoded";
      } catch (const NonFiniteError& e) {
        EXPECT_EQ(std::string(e.what()), expected);
      }
    }
  }
}

}  // namespace
}  // namespace commsim
