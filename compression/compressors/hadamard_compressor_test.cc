// The `hadamard` compressor against a dense rotation written out here (Sylvester's matrix and the
// seed's sign bits), with an exact inner compressor and with its default, FO-SGD's onebit.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "compression/coding/sylvester_test_util.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/hadamard.h"
#include "compression/compressors/identity.h"
#include "compression/compressors/onebit.h"
#include "compression/compressors/top_k.h"
#include "compression/registry.h"

namespace commsim {
namespace hadamard_compressor_test {

using compressor_test::Gaussian;

// The seed's signs: element j is -1 when bit j % 64 of the (j / 64)-th NextU64 of Rng(seed) is set.
std::vector<double> Signs(uint64_t seed, int64_t n) {
  Rng rng(seed);
  std::vector<double> s(static_cast<size_t>(n));
  uint64_t word = 0;
  for (int64_t j = 0; j < n; ++j) {
    if (j % 64 == 0) word = rng.NextU64();
    s[j] = ((word >> (j % 64)) & 1) != 0 ? -1.0 : 1.0;
  }
  return s;
}

std::unique_ptr<Compressor> HadamardOf(ComponentSpec inner) {
  ComponentSpec spec = CompressorSpec("hadamard");
  static_cast<HadamardConfig&>(*spec.config).inner = std::move(inner);
  return CompressorRegistry().Make(spec);
}

std::unique_ptr<Compressor> HadamardOfFp64Identity() {
  ComponentSpec inner = CompressorSpec("identity");
  static_cast<IdentityConfig&>(*inner.config).precision = 64;
  return HadamardOf(std::move(inner));
}

// d = 5, n = 8: the seed (the first draw of the Rng), then fp64 values of H D x~ / sqrt(8).
TEST(HadamardCompressorTest, WireIsTheSeedThenTheInnerMessageOfTheRotatedVector) {
  const std::unique_ptr<Compressor> q = HadamardOfFp64Identity();
  const Eigen::VectorXd x = Gaussian(5, 1);
  Rng rng(21), copy(21);
  const Message m = q->Encode(x, rng);
  const uint64_t seed = copy.NextU64();
  ASSERT_EQ(m.payload_bits, 64 + 64 * 8);
  ASSERT_EQ(m.words.size(), 9u);
  EXPECT_EQ(m.words[0], seed);
  const std::vector<double> h = test_hadamard::Sylvester<double>(8), s = Signs(seed, 8);
  for (int64_t i = 0; i < 8; ++i) {
    double y = 0.0;
    for (int64_t j = 0; j < 5; ++j) y += h[static_cast<size_t>(8 * i + j)] * s[j] * x[j];
    y /= std::sqrt(8.0);
    EXPECT_NEAR(std::bit_cast<double>(m.words[1 + i]), y, 1e-14 * x.norm()) << i;
  }
  Eigen::VectorXd out(5);
  q->Decode(m, out);
  EXPECT_LE((out - x).norm(), 1e-14 * x.norm());
  EXPECT_TRUE(q->unbiased());
  EXPECT_EQ(q->ErrorFactor(5), 0.0);
}

// The default is FO-SGD's operator: onebit inside. d = 12, n = 16: the message is the seed,
// lambda as fp32 and 16 sign bits; the decoded vector is the first 12 of D H (lambda q) / 4.
TEST(HadamardCompressorTest, DefaultIsOnebitAndDecodesThroughTheDenseRotation) {
  const ComponentSpec spec = CompressorSpec("hadamard");
  EXPECT_EQ(static_cast<const HadamardConfig&>(*spec.config).inner.name, "onebit");
  const std::unique_ptr<Compressor> q = CompressorRegistry().Make(spec);
  const Eigen::VectorXd x = Gaussian(12, 2);
  Rng rng(5);
  const Message m = q->Encode(x, rng);
  ASSERT_EQ(m.payload_bits, 64 + 32 + 16);
  const uint64_t seed = m.words[0];
  const double lambda = std::bit_cast<float>(static_cast<uint32_t>(m.words[1]));
  const double c = std::sqrt(2.0 * std::log(32.0));
  EXPECT_NEAR(lambda, c * x.norm() / 4.0, 1e-6 * lambda);
  const std::vector<double> h = test_hadamard::Sylvester<double>(16), s = Signs(seed, 16);
  std::vector<double> y_hat(16);
  for (int i = 0; i < 16; ++i) y_hat[i] = ((m.words[1] >> (32 + i)) & 1) != 0 ? -lambda : lambda;
  Eigen::VectorXd out(12);
  q->Decode(m, out);
  for (int64_t j = 0; j < 12; ++j) {
    double v = 0.0;
    for (int64_t i = 0; i < 16; ++i) v += h[static_cast<size_t>(16 * j + i)] * y_hat[i];
    EXPECT_NEAR(out[j], s[j] * v / 4.0, 1e-12 * lambda) << j;
  }
  EXPECT_FALSE(q->unbiased());
}

// The padded length is what is sent: 64 + 32 + n bits with onebit, n = 2^ceil(log2 d).
TEST(HadamardCompressorTest, PaddingIsCharged) {
  const std::unique_ptr<Compressor> q = CompressorRegistry().Make(CompressorSpec("hadamard"));
  for (const auto& [d, n] :
       {std::pair<int64_t, int64_t>{1, 1}, {513, 1024}, {1024, 1024}, {1025, 2048}}) {
    const Eigen::VectorXd x = Gaussian(d, 3);
    Rng rng(1);
    EXPECT_EQ(q->Encode(x, rng).payload_bits, 64 + 32 + n) << d;
    const Expectation e = q->Expected(x);
    EXPECT_EQ(e.payload_bits, static_cast<double>(64 + 32 + n)) << d;
    EXPECT_NE(e.bits_formula.find("exact"), std::string::npos) << e.bits_formula;
  }
}

// ErrorFactor is the inner's at the padded length: top_k with fraction 0.1 keeps
// round(102.4) = 102 of 1024, so 1 - 102/1024 at d = 1000 (not top_k's 1 - 100/1000 there).
TEST(HadamardCompressorTest, ErrorFactorIsTheInnersAtThePaddedLength) {
  ComponentSpec top = CompressorSpec("top_k");
  static_cast<TopKConfig&>(*top.config).fraction = 0.1;
  const std::unique_ptr<Compressor> q = HadamardOf(top);
  EXPECT_DOUBLE_EQ(q->ErrorFactor(1000), 1.0 - 102.0 / 1024.0);
  EXPECT_FALSE(q->unbiased());
  const std::unique_ptr<Compressor> fo = CompressorRegistry().Make(CompressorSpec("hadamard"));
  EXPECT_DOUBLE_EQ(fo->ErrorFactor(1000), 1.0 + 2.0 * std::log(2048.0));
  EXPECT_TRUE(HadamardOf(CompressorSpec("qsgd"))->unbiased());
}

// What the rotation is for: a spike 10 e_5 (d = n = 1024) becomes a flat vector of magnitude
// 10/32, inside [-lambda, lambda], so onebit is unbiased there and the error is
// n lambda^2 - ||x||^2 = (c^2 - 1) ||x||^2, against (n - 1) lambda^2 + (10 - lambda)^2 without it.
TEST(HadamardCompressorTest, RotationFlattensASpike) {
  const int64_t n = 1024;
  const std::unique_ptr<Compressor> q = CompressorRegistry().Make(CompressorSpec("hadamard"));
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  x[5] = 10.0;
  const double c = std::sqrt(2.0 * std::log(2.0 * n));
  const double lambda = c * 10.0 / 32.0;
  const double rotated = n * lambda * lambda - 100.0;
  const double unrotated = (n - 1) * lambda * lambda + (10.0 - lambda) * (10.0 - lambda);
  const int trials = 2000;
  double sum = 0.0, sum_sq = 0.0;
  Rng rng(9);
  Eigen::VectorXd out(n);
  for (int t = 0; t < trials; ++t) {
    q->Decode(q->Encode(x, rng), out);
    const double e = (out - x).squaredNorm();
    sum += e;
    sum_sq += e * e;
  }
  const double mean = sum / trials;
  const double se = std::sqrt((sum_sq / trials - mean * mean) / trials);
  // lambda on the wire is rounded up to fp32: relative 2^-23 on the error at most.
  EXPECT_NEAR(mean, rotated, 5 * se + 1e-6 * rotated);
  EXPECT_LT(mean + 5 * se, unrotated);
  EXPECT_NEAR(q->Expected(x).squared_error, rotated, 0.01 * rotated);
}

TEST(HadamardCompressorTest, InnerRangeErrorsNameHadamard) {
  const std::unique_ptr<Compressor> q = CompressorRegistry().Make(CompressorSpec("hadamard"));
  Eigen::VectorXd x = Gaussian(20, 4);
  x[3] = 1e300;
  Rng rng(1);
  try {
    q->Encode(x, rng);
    ADD_FAILURE() << "no error";
  } catch (const NonFiniteError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("hadamard: onebit", 0), 0u) << e.what();
  }
}

// Shorter than the seed, or a seed with no inner message: decode errors.
TEST(HadamardCompressorTest, TruncatedMessagesAreDecodeErrors) {
  const std::unique_ptr<Compressor> q = CompressorRegistry().Make(CompressorSpec("hadamard"));
  Eigen::VectorXd out(10);
  Message short_seed;
  short_seed.payload_bits = 40;
  short_seed.words = {123};
  EXPECT_THROW(q->Decode(short_seed, out), DecodeError);
  Message seed_only;
  seed_only.payload_bits = 64;
  seed_only.words = {123};
  EXPECT_THROW(q->Decode(seed_only, out), DecodeError);
}

}  // namespace hadamard_compressor_test
}  // namespace commsim
