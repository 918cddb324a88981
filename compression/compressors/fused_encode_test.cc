// What the contract suite does not pin down about the single-pass encoders: the input check
// folded into a later pass must report what a check of the whole input up front reports, and a
// fused EncodeWithDecoded must leave the caller's random stream where Encode leaves it.
// Runs over every registered compressor (default config) and the variants below.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/dithered.h"
#include "compression/compressors/qsgd.h"
#include "compression/compressors/scaled_sign.h"
#include "compression/registry.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

std::vector<std::pair<std::string, ComponentSpec>> FusedEncodeSpecs() {
  std::vector<std::pair<std::string, ComponentSpec>> out;
  for (const std::string& name : CompressorRegistry().names()) {
    out.emplace_back(name, CompressorSpec(name));
  }
  ComponentSpec qsgd_inf = CompressorSpec("qsgd");
  static_cast<QsgdConfig&>(*qsgd_inf.config).norm = "inf";
  static_cast<QsgdConfig&>(*qsgd_inf.config).bucket = 64;
  out.emplace_back("qsgd_inf_b64", std::move(qsgd_inf));
  ComponentSpec sign_l2 = CompressorSpec("scaled_sign");
  static_cast<ScaledSignConfig&>(*sign_l2.config).scale = "l2";
  out.emplace_back("scaled_sign_l2", std::move(sign_l2));
  ComponentSpec dithered = CompressorSpec("dithered");
  static_cast<DitheredConfig&>(*dithered.config).subtractive = true;
  out.emplace_back("dithered_subtractive", std::move(dithered));
  return out;
}

// A value beyond the fp32 range in the first block and a NaN in a later one: a check of the
// whole input up front names the NaN, so must an encoder that checks block by block.
TEST(FusedEncodeTest, ANaNIsReportedBeforeAnEarlierValueBeyondFp32) {
  Eigen::VectorXd x = Gaussian(2000, 12);
  x[2] = 1e300;
  x[1990] = std::nan("");
  for (const auto& [label, spec] : FusedEncodeSpecs()) {
    const std::unique_ptr<Compressor> c = CompressorRegistry().Make(spec);
    for (bool with_decoded : {false, true}) {
      Rng rng(1);
      Eigen::VectorXd out(x.size());
      try {
        if (with_decoded) {
          c->EncodeWithDecoded(x, rng, DecodeTarget(out));
        } else {
          c->Encode(x, rng);
        }
        ADD_FAILURE() << label << ": no error";
      } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("index 1990"), std::string::npos)
            << label << ": " << e.what();
      }
    }
  }
}

// Without a NaN the same input fails on the value beyond fp32 (not silently encoded).
TEST(FusedEncodeTest, AFiniteValueBeyondFp32IsAnError) {
  Eigen::VectorXd x = Gaussian(2000, 13);
  x[2] = 1e300;
  for (const auto& [label, spec] : FusedEncodeSpecs()) {
    const std::unique_ptr<Compressor> c = CompressorRegistry().Make(spec);
    if (c->Name() == "top_k" || c->Name() == "rand_k") continue;  // may not send x[2]
    if (c->Name() == "sign") continue;                            // sends no values
    Rng rng(1);
    EXPECT_THROW(c->Encode(x, rng), NonFiniteError) << label;
  }
}

TEST(FusedEncodeTest, EncodeWithDecodedLeavesTheRngWhereEncodeLeavesIt) {
  Eigen::VectorXd x = Gaussian(1000, 22);
  x.segment(100, 300).setZero();  // zero blocks draw nothing
  for (const auto& [label, spec] : FusedEncodeSpecs()) {
    const std::unique_ptr<Compressor> c = CompressorRegistry().Make(spec);
    Rng plain(23), fused(23);
    c->Encode(x, plain);
    Eigen::VectorXd out(x.size());
    c->EncodeWithDecoded(x, fused, DecodeTarget(out));
    EXPECT_EQ(plain.NextU64(), fused.NextU64()) << label;
  }
}

// Block sizes around the packed coding's 40-symbol words and the sparse coding's 256-element
// chunks: the (unchanged) decoder of each message must give the values the encoder delivered.
TEST(FusedEncodeTest, BlockTernaryWordAndChunkBoundaries) {
  for (const char* coding : {"packed", "sparse"}) {
    for (int64_t block : {1, 4, 5, 6, 39, 40, 41, 255, 256, 257, 1000}) {
      ComponentSpec spec = CompressorSpec("block_ternary");
      auto& cfg = static_cast<BlockTernaryConfig&>(*spec.config);
      cfg.coding = coding;
      cfg.block = block;
      const std::unique_ptr<Compressor> c = CompressorRegistry().Make(spec);
      for (int64_t d : {1, 41, 2100}) {
        const Eigen::VectorXd x = Gaussian(d, 30);
        Rng rng(31);
        Eigen::VectorXd delivered(d), decoded(d);
        const Message m = c->EncodeWithDecoded(x, rng, DecodeTarget(delivered));
        c->Decode(m, decoded);
        EXPECT_EQ(delivered, decoded) << coding << " block " << block << " d " << d;
      }
    }
  }
}

}  // namespace
}  // namespace commsim
