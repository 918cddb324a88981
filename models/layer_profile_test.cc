#include "models/layer_profile.h"

#include <gtest/gtest.h>

#include "models/lenet5.h"
#include "models/mlp.h"
#include "models/profiles.h"
#include "models/synthetic_quadratic.h"
#include "models/test_util.h"

namespace commsim {
namespace {

using testing::Partitioned;
using testing::RandomDataset;

int64_t Params(const char* name) {
  const LayerProfile* p = FindLayerProfile(name);
  EXPECT_NE(p, nullptr) << name;
  return p != nullptr ? p->TotalParams() : -1;
}

TEST(LayerProfileTest, TotalsEqualThePublishedParameterCounts) {
  // ResNet-18 for CIFAR-10 (3x3 stem, no max-pool, 10 classes): the count printed by the
  // widely used kuangliu/pytorch-cifar ResNet18 (torchsummary "Total params: 11,173,962").
  EXPECT_EQ(Params("resnet18"), 11'173'962);
  // torchvision.models.resnet50 model card: num_params 25,557,032.
  EXPECT_EQ(Params("resnet50"), 25'557'032);
  // torchvision model cards: resnet101 44,549,160; resnext50_32x4d 25,028,904;
  // resnext101_32x8d 88,791,336.
  EXPECT_EQ(Params("resnet101"), 44'549'160);
  EXPECT_EQ(Params("resnext50_32x4d"), 25'028'904);
  EXPECT_EQ(Params("resnext101_32x8d"), 88'791'336);
  // ResNet-20 for CIFAR-10 with option-A shortcuts, by hand: stem 3x3x3x16 + bn 32; convs
  // 6 x 2304 (16->16), 4608 + 5 x 9216 (32), 18432 + 5 x 36864 (64); 18 bn of 2c; linear 650.
  EXPECT_EQ(Params("resnet20"), 432 + 32 + 6 * 2304 + 4608 + 5 * 9216 + 18432 + 5 * 36864 + 6 * 32 +
                                    6 * 64 + 6 * 128 + 650);
  // torchvision.models.vgg16 model card: num_params 138,357,544.
  EXPECT_EQ(Params("vgg16"), 138'357'544);
  // Hugging Face GPT2Model("gpt2").num_parameters(): 124,439,808 (tied output embedding).
  EXPECT_EQ(Params("gpt2_small"), 124'439'808);
  // Hugging Face BertModel("bert-base-uncased").num_parameters(): 109,482,240 (with pooler).
  EXPECT_EQ(Params("bert_base"), 109'482'240);
  // LeNet-5 on MNIST as documented in models/lenet5.h; the MLP 784-64-10:
  // 784 x 64 + 64 + 64 x 10 + 10.
  EXPECT_EQ(Params("lenet5"), 61'706);
  EXPECT_EQ(Params("mlp"), 784 * 64 + 64 + 64 * 10 + 10);
}

TEST(LayerProfileTest, NamesAreSortedAndFindable) {
  const std::vector<std::string> names = LayerProfileNames();
  EXPECT_EQ(names, (std::vector<std::string>{"bert_base", "gpt2_small", "lenet5", "mlp",
                                             "resnet101", "resnet18", "resnet20", "resnet50",
                                             "resnext101_32x8d", "resnext50_32x4d", "vgg16"}));
  for (const std::string& name : names) EXPECT_EQ(FindLayerProfile(name)->name, name);
  EXPECT_EQ(FindLayerProfile("resnet-18"), nullptr);
}

TEST(LayerProfileTest, ResNet18StemAndConvolutionFlopsMatchHandCounts) {
  const LayerProfile& p = *FindLayerProfile("resnet18");
  // Stem: 3x3 kernel, 3 -> 64 channels, 32x32 output: 3*3*3*64*32*32 MACs, no bias.
  const Layer& stem = p.layers.front();
  EXPECT_EQ(stem.name, "conv1");
  EXPECT_EQ(stem.params, 3 * 3 * 3 * 64);
  EXPECT_DOUBLE_EQ(stem.forward_flops_per_sample, 2.0 * 3 * 3 * 3 * 64 * 32 * 32);
  EXPECT_DOUBLE_EQ(stem.backward_flops_per_sample, 4.0 * 3 * 3 * 3 * 64 * 32 * 32);
  // All convolutions: stem + stage 1 (four 3x3 64->64 at 32x32) + stages 2-4, each one strided
  // 3x3 c->2c, three 3x3 2c->2c and a 1x1 c->2c shortcut at half the size.
  double conv_macs = 3 * 3 * 3 * 64 * 1024.0 + 4 * (9 * 64 * 64 * 1024.0);
  for (const auto& [c, size] : {std::pair{64, 16}, {128, 8}, {256, 4}}) {
    const double pixels = size * size;
    conv_macs += (9.0 * c * 2 * c + 3 * 9.0 * 2 * c * 2 * c + 1.0 * c * 2 * c) * pixels;
  }
  EXPECT_DOUBLE_EQ(conv_macs, 555'417'600);  // the usual "0.56 GMACs" of CIFAR ResNet-18
  double conv_forward = 0;
  for (const Layer& l : p.layers) {
    if (l.name.find("conv") != std::string::npos || l.name.ends_with("downsample.0")) {
      conv_forward += l.forward_flops_per_sample;
    }
  }
  EXPECT_DOUBLE_EQ(conv_forward, 2 * conv_macs);
  EXPECT_DOUBLE_EQ(p.BackwardFlopsPerSample(), 2 * p.ForwardFlopsPerSample());
}

TEST(LayerProfileTest, ImageNetFlopsAreNearTheTorchvisionFigures) {
  // torchvision model cards give multiply-adds per 224x224 image ("GFLOPS"): resnet50 4.09,
  // vgg16 15.47. Forward FLOPs here are 2 x MACs (batch-norm affine MACs included).
  EXPECT_NEAR(FindLayerProfile("resnet50")->ForwardFlopsPerSample() / 2, 4.09e9, 0.01 * 4.09e9);
  EXPECT_NEAR(FindLayerProfile("vgg16")->ForwardFlopsPerSample() / 2, 15.47e9, 0.01 * 15.47e9);
  // resnet101 7.80, resnext50_32x4d 4.23, resnext101_32x8d 16.41 (the same model cards).
  EXPECT_NEAR(FindLayerProfile("resnet101")->ForwardFlopsPerSample() / 2, 7.80e9, 0.01 * 7.80e9);
  EXPECT_NEAR(FindLayerProfile("resnext50_32x4d")->ForwardFlopsPerSample() / 2, 4.23e9,
              0.01 * 4.23e9);
  EXPECT_NEAR(FindLayerProfile("resnext101_32x8d")->ForwardFlopsPerSample() / 2, 16.41e9,
              0.01 * 16.41e9);
}

TEST(LayerProfileTest, Gpt2FlopsFollowTheTwoFlopsPerParameterPerTokenRule) {
  // Forward FLOPs per token ~ 2 x (non-embedding parameters + output projection) + attention
  // 2 x 2 x layers x context x width (Kaplan et al. 2020, table 1).
  const double non_embedding = 12 * (4 * 768.0 * 768 + 2 * 768.0 * 3072);
  const double per_token = 2 * (non_embedding + 768.0 * 50257) + 4 * 12 * 1024 * 768.0;
  EXPECT_NEAR(FindLayerProfile("gpt2_small")->ForwardFlopsPerSample() / 1024, per_token,
              0.01 * per_token);
}

TEST(LayerProfileTest, LeNet5AndMlpObjectsReportTheirProfiles) {
  Dataset mnist_like = RandomDataset(784, 20, 10, 1);
  mnist_like.image_shape = {1, 28, 28};
  const LeNet5 lenet(LeNet5Config{}, Partitioned(mnist_like, 1));
  ASSERT_NE(lenet.layers(), nullptr);
  EXPECT_EQ(lenet.layers()->TotalParams(), lenet.dim());
  EXPECT_EQ(lenet.dim(), Params("lenet5"));
  // conv1 25*6 x 28*28, conv2 150*16 x 10*10, fc 400*120 + 120*84 + 84*10 MACs; 6 FLOPs each.
  EXPECT_DOUBLE_EQ(lenet.flops_per_sample(),
                   6.0 * (25 * 6 * 784 + 150 * 16 * 100 + 400 * 120 + 120 * 84 + 84 * 10));
  Dataset colour = RandomDataset(3 * 32 * 32, 20, 7, 1);
  colour.image_shape = {3, 32, 32};
  const LeNet5 lenet_colour(LeNet5Config{}, Partitioned(colour, 1));
  EXPECT_EQ(lenet_colour.layers()->TotalParams(), lenet_colour.dim());

  const Mlp mlp(MlpConfig{}, Partitioned(mnist_like, 1));
  ASSERT_NE(mlp.layers(), nullptr);
  EXPECT_EQ(mlp.dim(), Params("mlp"));
  MlpConfig deep;
  deep.hidden = {32, 16};
  const Mlp mlp_deep(deep, Partitioned(mnist_like, 1));
  EXPECT_EQ(mlp_deep.layers()->TotalParams(), mlp_deep.dim());
  EXPECT_EQ(mlp_deep.layers()->layers.size(), 3u);
  EXPECT_DOUBLE_EQ(mlp_deep.flops_per_sample(), 6.0 * (784 * 32 + 32 * 16 + 16 * 10));
}

TEST(LayerProfileTest, SyntheticQuadraticTakesItsSizeAndFlopsFromAProfile) {
  SyntheticQuadraticConfig c;
  c.dim = 0;
  c.profile = "lenet5";
  ParamProblems ok;
  c.Validate(ok);
  EXPECT_TRUE(ok.empty());
  const SyntheticQuadratic f(c, 2, 1);
  const LayerProfile* lenet = FindLayerProfile("lenet5");
  EXPECT_EQ(f.layers(), lenet);
  EXPECT_EQ(f.dim(), 61'706);
  EXPECT_DOUBLE_EQ(f.flops_per_sample(),
                   lenet->ForwardFlopsPerSample() + lenet->BackwardFlopsPerSample());
  c.profile = "";
  EXPECT_EQ(SyntheticQuadratic(c, 2, 1).dim(), 1000);  // no profile: the default size
  EXPECT_EQ(SyntheticQuadratic(c, 2, 1).layers(), nullptr);
}

TEST(LayerProfileTest, SyntheticQuadraticRejectsAProfileThatDisagrees) {
  SyntheticQuadraticConfig c;
  c.profile = "resnet18";
  c.dim = 1000;
  c.flops_per_sample = 1e9;
  ParamProblems problems;
  c.Validate(problems);
  ASSERT_EQ(problems.problems().size(), 2u);
  EXPECT_EQ(problems.problems()[0].key, "dim");
  EXPECT_EQ(problems.problems()[0].message,
            "is 1000 but profile \"resnet18\" has 11173962 parameters; leave dim out or set it "
            "to 11173962");
  EXPECT_EQ(problems.problems()[1].key, "flops_per_sample");
  c.profile = "resnet";
  ParamProblems unknown;
  c.Validate(unknown);
  ASSERT_EQ(unknown.problems().size(), 1u);
  EXPECT_EQ(unknown.problems()[0].message,
            "unknown profile \"resnet\", expected one of: bert_base, gpt2_small, lenet5, mlp, "
            "resnet101, resnet18, resnet20, resnet50, resnext101_32x8d, resnext50_32x4d, vgg16");
}

}  // namespace
}  // namespace commsim
