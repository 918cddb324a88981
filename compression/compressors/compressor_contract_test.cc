// The contract suite: runs over every registered compressor (default config) plus the variants
// listed in Variants(); adding a compressor to the registry adds it here automatically. The toy
// compressor of the plug-in recipe (raw_f64_test_util.h, a registry of its own) runs here too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "base/error.h"
#include "compression/codec/link_compressor.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/dgc.h"
#include "compression/compressors/dithered.h"
#include "compression/compressors/hadamard.h"
#include "compression/compressors/identity.h"
#include "compression/compressors/int8.h"
#include "compression/compressors/natural.h"
#include "compression/compressors/onebit.h"
#include "compression/compressors/qsgd.h"
#include "compression/compressors/rand_k.h"
#include "compression/compressors/raw_f64_test_util.h"
#include "compression/compressors/scaled_sign.h"
#include "compression/compressors/sign.h"
#include "compression/compressors/terngrad.h"
#include "compression/compressors/top_k.h"
#include "compression/registry.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

struct Variant {
  std::string label;
  const Registry<Compressor>* registry;  // the one that builds `spec`
  ComponentSpec spec;
};

std::vector<Variant> Variants() {
  std::vector<Variant> out;
  for (const Registry<Compressor>* registry :
       {&CompressorRegistry(), &testing::ToyCompressorRegistry()}) {
    for (const std::string& name : registry->names()) {
      out.push_back({name, registry, registry->DefaultSpec(kCompressorKind, name)});
    }
  }
  auto add = [&](const std::string& label, const std::string& name, auto tweak) {
    ComponentSpec spec = CompressorSpec(name);
    tweak(*spec.config);
    out.push_back({label, &CompressorRegistry(), std::move(spec)});
  };
  for (const char* p : {"2", "inf"}) {
    for (const char* coding : {"fixed2", "packed", "sparse", "entropy"}) {
      add(std::string("block_ternary_p") + p + "_" + coding + "_b16", "block_ternary",
          [&](Config& c) {
            auto& cfg = static_cast<BlockTernaryConfig&>(c);
            cfg.p = p;
            cfg.coding = coding;
            cfg.block = 16;
          });
    }
  }
  for (const char* norm : {"2", "inf"}) {
    for (const char* coding : {"elias", "fixed"}) {
      add(std::string("qsgd_") + norm + "_" + coding + "_s4_b32", "qsgd", [&](Config& c) {
        auto& cfg = static_cast<QsgdConfig&>(c);
        cfg.norm = norm;
        cfg.coding = coding;
        cfg.levels = 4;
        cfg.bucket = 32;
      });
    }
  }
  // The counter-based draws (uniform_draws.h) of every stochastic quantizer, with blocks and
  // buckets that do not line up with the 256-element draw chunks.
  for (const char* coding : {"fixed2", "packed", "sparse", "entropy"}) {
    add(std::string("block_ternary_pinf_") + coding + "_b100_counter", "block_ternary",
        [&](Config& c) {
          auto& cfg = static_cast<BlockTernaryConfig&>(c);
          cfg.coding = coding;
          cfg.block = 100;
          cfg.rng = "counter";
        });
  }
  for (const char* coding : {"elias", "fixed"}) {
    add(std::string("qsgd_2_") + coding + "_s4_b300_counter", "qsgd", [&](Config& c) {
      auto& cfg = static_cast<QsgdConfig&>(c);
      cfg.coding = coding;
      cfg.levels = 4;
      cfg.bucket = 300;
      cfg.rng = "counter";
    });
  }
  add("dithered_counter", "dithered",
      [](Config& c) { static_cast<DitheredConfig&>(c).rng = "counter"; });
  add("dithered_subtractive_counter", "dithered", [](Config& c) {
    auto& cfg = static_cast<DitheredConfig&>(c);
    cfg.subtractive = true;
    cfg.dither_seed = 42;
    cfg.rng = "counter";
  });
  add("identity_64", "identity", [](Config& c) { static_cast<IdentityConfig&>(c).precision = 64; });
  add("top_k_golomb_k5", "top_k", [](Config& c) {
    auto& cfg = static_cast<TopKConfig&>(c);
    cfg.index_coding = "golomb";
    cfg.k = 5;
  });
  add("top_k_fraction_0_3", "top_k", [](Config& c) { static_cast<TopKConfig&>(c).fraction = 0.3; });
  add("rand_k_scaled", "rand_k", [](Config& c) {
    auto& cfg = static_cast<RandKConfig&>(c);
    cfg.scale = true;
    cfg.fraction = 0.25;
  });
  add("scaled_sign_l2_b8", "scaled_sign", [](Config& c) {
    auto& cfg = static_cast<ScaledSignConfig&>(c);
    cfg.scale = "l2";
    cfg.block = 8;
  });
  add("scaled_sign_whole", "scaled_sign",
      [](Config& c) { static_cast<ScaledSignConfig&>(c).block = 0; });
  add("dithered_subtractive", "dithered", [](Config& c) {
    auto& cfg = static_cast<DitheredConfig&>(c);
    cfg.subtractive = true;
    cfg.dither_seed = 42;
  });
  add("dithered_s2", "dithered", [](Config& c) { static_cast<DitheredConfig&>(c).levels = 2; });
  add("int8_b16", "int8", [](Config& c) { static_cast<Int8Config&>(c).block = 16; });
  for (const char* rng : {"stream", "counter"}) {
    add(std::string("int8_stochastic_b100_") + rng, "int8", [&](Config& c) {
      auto& cfg = static_cast<Int8Config&>(c);
      cfg.stochastic = true;
      cfg.block = 100;
      cfg.rng = rng;
    });
  }
  add("terngrad_b16", "terngrad", [](Config& c) { static_cast<TernGradConfig&>(c).block = 16; });
  add("terngrad_clip_2_5", "terngrad",
      [](Config& c) { static_cast<TernGradConfig&>(c).clip = 2.5; });
  add("terngrad_clip_1_b100_counter", "terngrad", [](Config& c) {
    auto& cfg = static_cast<TernGradConfig&>(c);
    cfg.clip = 1.0;
    cfg.block = 100;
    cfg.rng = "counter";
  });
  add("natural_counter", "natural",
      [](Config& c) { static_cast<NaturalConfig&>(c).rng = "counter"; });
  // The rotation around an unbiased inner compressor (its means are checked) and a deterministic
  // one.
  add("hadamard_qsgd", "hadamard",
      [](Config& c) { static_cast<HadamardConfig&>(c).inner = CompressorSpec("qsgd"); });
  add("hadamard_top_k_0_25", "hadamard", [](Config& c) {
    ComponentSpec inner = CompressorSpec("top_k");
    static_cast<TopKConfig&>(*inner.config).fraction = 0.25;
    static_cast<HadamardConfig&>(c).inner = std::move(inner);
  });
  add("onebit_c1", "onebit", [](Config& c) { static_cast<OneBitConfig&>(c).c = 1.0; });
  add("sign_scale_0_5", "sign", [](Config& c) { static_cast<SignConfig&>(c).scale = 0.5; });
  // A sample smaller than d at the dimensions tested here (random thresholds), golomb indices.
  add("dgc_sampled_golomb", "dgc", [](Config& c) {
    auto& cfg = static_cast<DgcConfig&>(c);
    cfg.ratio = 0.1;
    cfg.sample_fraction = 0.1;
    cfg.min_sample = 10;
    cfg.index_coding = "golomb";
  });
  return out;
}

class ContractTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    variant_ = &AllVariants()[static_cast<size_t>(GetParam())];
    compressor_ = variant_->registry->Make(variant_->spec);
  }
  static const std::vector<Variant>& AllVariants() {
    static const std::vector<Variant> v = Variants();
    return v;
  }
  Eigen::VectorXd RoundTrip(const Eigen::VectorXd& x, uint64_t seed, Message* message = nullptr) {
    Rng rng(seed);
    Message m = compressor_->Encode(x, rng);
    Eigen::VectorXd out = Eigen::VectorXd::Constant(x.size(), -123.0);
    compressor_->Decode(m, out);
    if (message != nullptr) *message = std::move(m);
    return out;
  }
  const Variant* variant_ = nullptr;
  std::unique_ptr<Compressor> compressor_;

 public:
  static std::string Label(const ::testing::TestParamInfo<int>& info) {
    return AllVariants()[static_cast<size_t>(info.param)].label;
  }
  static int Count() { return static_cast<int>(AllVariants().size()); }
};

TEST_P(ContractTest, NameMatchesRegistry) { EXPECT_EQ(compressor_->Name(), variant_->spec.name); }

TEST_P(ContractTest, SameSeedSameBitsAndDecodeIsDeterministic) {
  const Eigen::VectorXd x = Gaussian(300, 1);
  Message a, b;
  const Eigen::VectorXd qa = RoundTrip(x, 77, &a);
  const Eigen::VectorXd qb = RoundTrip(x, 77, &b);
  EXPECT_EQ(a.payload_bits, b.payload_bits);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(qa, qb);
  EXPECT_TRUE(qa.allFinite());
}

TEST_P(ContractTest, ReportedBitsAreTheBitsWrittenAndDecodeConsumesExactlyThem) {
  for (int64_t d : {1, 7, 300}) {
    const Eigen::VectorXd x = Gaussian(d, 2);
    Message m;
    RoundTrip(x, 3, &m);
    ASSERT_EQ(static_cast<int64_t>(m.words.size()), (m.payload_bits + 63) / 64);
    if (m.payload_bits % 64 != 0) {
      EXPECT_EQ(m.words.back() >> (m.payload_bits % 64), 0u);
    }
    // One extra (zero) bit must be rejected: the decoder checks where the stream ends.
    Message longer = m;
    longer.payload_bits += 1;
    if (longer.payload_bits > 64 * static_cast<int64_t>(longer.words.size()))
      longer.words.push_back(0);
    Eigen::VectorXd out(d);
    EXPECT_THROW(compressor_->Decode(longer, out), DecodeError) << "d = " << d;
  }
}

TEST_P(ContractTest, TruncatedMessagesAreDecodeErrors) {
  const Eigen::VectorXd x = Gaussian(300, 4);
  Message m;
  RoundTrip(x, 5, &m);
  Eigen::VectorXd out(300);
  for (int64_t keep : {int64_t{0}, int64_t{31}, m.payload_bits / 2, m.payload_bits - 1}) {
    Message t = m;
    t.payload_bits = keep;
    t.words.resize(static_cast<size_t>((keep + 63) / 64));
    if (keep % 64 != 0) t.words.back() &= (uint64_t{1} << (keep % 64)) - 1;
    EXPECT_THROW(compressor_->Decode(t, out), DecodeError) << "keep " << keep;
  }
  Message lying = m;  // claims more bits than it holds
  lying.words.pop_back();
  EXPECT_THROW(compressor_->Decode(lying, out), DecodeError);
}

TEST_P(ContractTest, CorruptedMessagesDecodeOrThrowDecodeErrorNeverCrash) {
  const Eigen::VectorXd x = Gaussian(120, 6);
  Message m;
  RoundTrip(x, 7, &m);
  Rng rng(8);
  Eigen::VectorXd out(120);
  for (int trial = 0; trial < 200; ++trial) {
    Message c = m;
    const int flips = 1 + static_cast<int>(rng.UniformInt(4));
    for (int f = 0; f < flips; ++f) {
      const uint64_t bit = rng.UniformInt(static_cast<uint64_t>(c.payload_bits));
      c.words[bit / 64] ^= uint64_t{1} << (bit % 64);
    }
    try {
      compressor_->Decode(c, out);
      EXPECT_TRUE(out.allFinite());
    } catch (const DecodeError&) {
    }
  }
}

// A finite ErrorFactor(d) bounds E||Q(0) - 0||^2 by C * 0, so zero comes back as zero; and
// ErrorFactor(1) = 0 promises an exact single coordinate (-2.5 is exact in fp32). A compressor
// without a finite factor (sign) owes neither, only finite values.
TEST_P(ContractTest, ZeroVectorAndDimensionOne) {
  for (int64_t d : {1, 2, 300}) {
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(d);
    const Eigen::VectorXd q = RoundTrip(zero, 9);
    EXPECT_TRUE(q.allFinite()) << "d = " << d;
    if (std::isfinite(compressor_->ErrorFactor(d))) {
      EXPECT_EQ(q, zero) << "d = " << d;
    }
  }
  Eigen::VectorXd one(1);
  one << -2.5;
  const Eigen::VectorXd q = RoundTrip(one, 10);
  EXPECT_TRUE(q.allFinite());
  if (compressor_->ErrorFactor(1) == 0.0) {
    EXPECT_DOUBLE_EQ(q[0], -2.5);
  }
}

// True when a and b hold the same bits (== would equate 0.0 and -0.0).
::testing::AssertionResult SameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (Eigen::Index j = 0; j < a.size(); ++j) {
    if (std::bit_cast<uint64_t>(a[j]) != std::bit_cast<uint64_t>(b[j])) {
      return ::testing::AssertionFailure() << "element " << j << ": " << a[j] << " vs " << b[j];
    }
  }
  return ::testing::AssertionSuccess();
}

// Inputs with an all-zero stretch and a -0.0 (blocks and sparse gaps that decode to zero).
Eigen::VectorXd WithZeros(int64_t d, uint64_t seed) {
  Eigen::VectorXd x = Gaussian(d, seed);
  for (int64_t j = d / 3; j < std::min<int64_t>(d, d / 3 + 40); ++j) x[j] = 0.0;
  if (d > 1) x[d - 1] = -0.0;
  return x;
}

// base + weight * v, element by element: the update a DecodeTarget promises.
Eigen::VectorXd Axpy(const Eigen::VectorXd& base, double weight, const Eigen::VectorXd& v) {
  Eigen::VectorXd out(base.size());
  for (Eigen::Index j = 0; j < base.size(); ++j) out[j] = base[j] + weight * v[j];
  return out;
}

// A base with -0.0 entries: -0.0 + 0.0 is +0.0, so a target must not skip zero values.
Eigen::VectorXd BaseWithNegativeZeros(int64_t d) {
  Eigen::VectorXd base = Gaussian(d, 99);
  for (int64_t j = 0; j < d; j += 3) base[j] = -0.0;
  return base;
}

TEST_P(ContractTest, EncodeWithDecodedGivesTheSameMessageAndDecodeOfItBitForBit) {
  for (int64_t d : {1, 7, 300, 1000}) {
    const Eigen::VectorXd x = WithZeros(d, 20);
    Message reference;
    const Eigen::VectorXd decoded = RoundTrip(x, 21, &reference);
    Rng rng(21);
    Eigen::VectorXd out = Eigen::VectorXd::Constant(d, -123.0);
    const Message m = compressor_->EncodeWithDecoded(x, rng, DecodeTarget(out));
    EXPECT_EQ(m.payload_bits, reference.payload_bits) << "d = " << d;
    EXPECT_EQ(m.words, reference.words) << "d = " << d;
    EXPECT_TRUE(SameBits(out, decoded)) << "d = " << d;
    for (double weight : {1.0, 0.25, -0.5}) {
      const Eigen::VectorXd base = BaseWithNegativeZeros(d);
      Rng again(21);
      Eigen::VectorXd updated(d);
      compressor_->EncodeWithDecoded(x, again, DecodeTarget(updated, base, weight));
      EXPECT_TRUE(SameBits(updated, Axpy(base, weight, decoded))) << "d = " << d << " w " << weight;
      Eigen::VectorXd in_place = base;  // out += weight * decoded
      compressor_->DecodeInto(reference, DecodeTarget(in_place, in_place, weight));
      EXPECT_TRUE(SameBits(in_place, Axpy(base, weight, decoded)))
          << "d = " << d << " w " << weight;
    }
  }
}

TEST_P(ContractTest, BucketedLinkDeliversTheDecodedBucketsBitForBit) {
  LinkCompressor link(variant_->registry->Make(variant_->spec));
  link.set_buckets({Segment{0, 90}, Segment{90, 1}, Segment{91, 209}});
  const Eigen::VectorXd x = WithZeros(300, 22);
  Rng rng(23), again(23);
  const Message reference = link.Encode(x, rng);
  Eigen::VectorXd decoded(300), out(300);
  link.Decode(reference, decoded);
  const Message m = link.EncodeWithDecoded(x, again, DecodeTarget(out));
  EXPECT_EQ(m.payload_bits, reference.payload_bits);
  EXPECT_TRUE(SameBits(out, decoded));
  const Eigen::VectorXd base = BaseWithNegativeZeros(300);
  Eigen::VectorXd updated = base;
  link.DecodeInto(reference, DecodeTarget(updated, updated, -2.0));
  EXPECT_TRUE(SameBits(updated, Axpy(base, -2.0, decoded)));
}

TEST_P(ContractTest, NonFiniteInputIsAUserErrorNamingTheCompressor) {
  for (double bad : {std::nan(""), std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity()}) {
    Eigen::VectorXd x = Gaussian(50, 11);
    x[17] = bad;
    for (bool with_decoded : {false, true}) {
      Rng rng(1);
      Eigen::VectorXd out(50);
      try {
        if (with_decoded) {
          compressor_->EncodeWithDecoded(x, rng, DecodeTarget(out));
        } else {
          compressor_->Encode(x, rng);
        }
        ADD_FAILURE() << "no error for " << bad;
      } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find(std::string(compressor_->Name())), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("non-finite"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("index 17"), std::string::npos) << e.what();
      }
    }
  }
}

// The relative error does not depend on the scale of x, except for a compressor without a finite
// ErrorFactor (sign decodes +-scale whatever the magnitudes): its values need only be finite.
TEST_P(ContractTest, HugeAndTinyMagnitudesKeepTheRelativeError) {
  if (variant_->spec.name == "fp16") {
    GTEST_SKIP() << "a fixed range (|x| <= 65504, steps of 2^-24): casts_test.cc checks both ends";
  }
  const Eigen::VectorXd x = Gaussian(300, 12);
  const double base = (RoundTrip(x, 13) - x).squaredNorm() / x.squaredNorm();
  for (double scale : {1e30, 1e-30}) {
    const Eigen::VectorXd xs = scale * x;
    const Eigen::VectorXd q = RoundTrip(xs, 13);
    ASSERT_TRUE(q.allFinite()) << scale;
    if (!std::isfinite(compressor_->ErrorFactor(300))) continue;
    const double rel = (q - xs).squaredNorm() / xs.squaredNorm();
    EXPECT_NEAR(rel, base, 0.5 * base + 1e-9) << "scale " << scale;
  }
}

TEST_P(ContractTest, MonteCarloErrorMatchesTheClosedFormAndTheBound) {
  const int64_t d = 40;
  Eigen::VectorXd x = Gaussian(d, 14);
  x[3] = 0.0;
  x[5] = 4.0;  // an outlier
  const int trials = 3000;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(d), sum_sq = Eigen::VectorXd::Zero(d);
  double err_sum = 0.0, err_sq = 0.0;
  Rng rng(15);
  Eigen::VectorXd q(d);
  for (int t = 0; t < trials; ++t) {
    compressor_->Decode(compressor_->Encode(x, rng), q);
    sum += q;
    sum_sq += q.cwiseProduct(q);
    const double e = (q - x).squaredNorm();
    err_sum += e;
    err_sq += e * e;
  }
  const double err_mean = err_sum / trials;
  const double err_se = std::sqrt(std::max(err_sq / trials - err_mean * err_mean, 0.0) / trials);
  const Expectation expected = compressor_->Expected(x);
  EXPECT_NEAR(err_mean, expected.squared_error, 4 * err_se + 1e-9 * x.squaredNorm());
  EXPECT_LE(err_mean, (compressor_->ErrorFactor(d) + 1e-6) * x.squaredNorm() + 4 * err_se);
  // ErrorFactor ignores the fp32 rounding of norms and values (relative 2^-23 at most).
  EXPECT_LE(expected.squared_error, (compressor_->ErrorFactor(d) + 1e-6) * x.squaredNorm());
  if (compressor_->unbiased()) {
    for (int64_t i = 0; i < d; ++i) {
      const double mean = sum[i] / trials;
      const double se = std::sqrt(std::max(sum_sq[i] / trials - mean * mean, 0.0) / trials);
      EXPECT_NEAR(mean, x[i], 4 * se + 1e-6 * std::abs(x[i])) << "coordinate " << i;
    }
  }
}

TEST_P(ContractTest, ExactBitFormulasHold) {
  for (int64_t d : {1, 37, 300}) {
    const Eigen::VectorXd x = Gaussian(d, 16);
    const Expectation e = compressor_->Expected(x);
    Message m;
    RoundTrip(x, 17, &m);
    if (e.bits_formula.find("exact") != std::string::npos) {
      EXPECT_EQ(static_cast<double>(m.payload_bits), e.payload_bits) << e.bits_formula;
    }
    if (e.bits_formula.find("bound") != std::string::npos) {
      EXPECT_LE(static_cast<double>(m.payload_bits), e.payload_bits) << e.bits_formula;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllCompressors, ContractTest, ::testing::Range(0, ContractTest::Count()),
                         ContractTest::Label);

}  // namespace
}  // namespace commsim
