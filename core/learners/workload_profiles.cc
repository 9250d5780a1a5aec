#include "core/learners/workload_profiles.h"

#include "core/learners/mlp.h"

namespace geotrain {
namespace {

// Training costs about three forward passes (the backward pass computes two
// products per forward one); a multiply-add is two FLOPs.
constexpr double kTrainPerForwardMac = 2.0 * 3.0;

void conv_bn(std::vector<std::uint64_t>& t, std::uint64_t in, std::uint64_t out, std::uint64_t k) {
  t.push_back(k * k * in * out);  // no bias: batch norm follows
  t.push_back(out);               // batch-norm scale
  t.push_back(out);               // batch-norm shift
}

// He et al. 2016, torchvision's resnet50: 25,557,032 parameters; 4.09 GMACs
// forward per 224 x 224 image.
WorkloadProfile resnet50() {
  WorkloadProfile p{"resnet50",
                    "ResNet-50 (ImageNet, 224 x 224): 25.6 M parameters, 161 tensors, 97.5 MiB",
                    {},
                    kTrainPerForwardMac * 4.09e9};
  conv_bn(p.tensors, 3, 64, 7);
  std::uint64_t in = 64;
  const int blocks[4] = {3, 4, 6, 3};
  for (int stage = 0; stage < 4; ++stage) {
    const std::uint64_t width = 64u << stage, out = 4 * width;
    for (int b = 0; b < blocks[stage]; ++b) {
      conv_bn(p.tensors, in, width, 1);
      conv_bn(p.tensors, width, width, 3);
      conv_bn(p.tensors, width, out, 1);
      if (b == 0) conv_bn(p.tensors, in, out, 1);  // the projection shortcut
      in = out;
    }
  }
  p.tensors.push_back(2048 * 1000);
  p.tensors.push_back(1000);
  return p;
}

// Simonyan and Zisserman 2015, configuration D: 138,357,544 parameters;
// 15.47 GMACs forward per 224 x 224 image.
WorkloadProfile vgg16() {
  WorkloadProfile p{"vgg16",
                    "VGG-16 (ImageNet, 224 x 224): 138.4 M parameters, 32 tensors, 528 MiB",
                    {},
                    kTrainPerForwardMac * 15.47e9};
  std::uint64_t in = 3;
  for (std::uint64_t out : {64, 64, 128, 128, 256, 256, 256, 512, 512, 512, 512, 512, 512}) {
    p.tensors.push_back(9 * in * out);
    p.tensors.push_back(out);
    in = out;
  }
  const std::uint64_t dense[3][2] = {{25088, 4096}, {4096, 4096}, {4096, 1000}};
  for (const auto& fc : dense) {
    p.tensors.push_back(fc[0] * fc[1]);
    p.tensors.push_back(fc[1]);
  }
  return p;
}

// Transformer encoder/decoder layers of width d: attention, feed-forward,
// layer norms; `fused_qkv` as GPT-2 stores it.
void transformer_layer(std::vector<std::uint64_t>& t, std::uint64_t d, bool fused_qkv, bool norm_first) {
  auto norm = [&] {
    t.push_back(d);
    t.push_back(d);
  };
  if (norm_first) norm();
  if (fused_qkv) {
    t.push_back(d * 3 * d);
    t.push_back(3 * d);
  } else {
    for (int i = 0; i < 3; ++i) {
      t.push_back(d * d);
      t.push_back(d);
    }
  }
  t.push_back(d * d);  // attention output
  t.push_back(d);
  norm();
  t.push_back(d * 4 * d);
  t.push_back(4 * d);
  t.push_back(4 * d * d);
  t.push_back(d);
  if (!norm_first) norm();
}

// Devlin et al. 2019, bert-base-uncased with its pooler: 109,482,240
// parameters. Per 128-token sequence: 2 x 85 M (non-embedding) MACs per token
// plus attention's 2 x 12 layers x 128 x 768 per token.
WorkloadProfile bert_base() {
  const double tokens = 128, d = 768, layers = 12;
  const double macs = tokens * (85.0e6 + 2 * layers * tokens * d);
  WorkloadProfile p{"bert-base",
                    "BERT-base (uncased, 128-token sequences): 109.5 M parameters, 199 tensors",
                    {},
                    kTrainPerForwardMac * macs};
  p.tensors = {30522 * 768, 512 * 768, 2 * 768, 768, 768};  // word, position, type embeddings; norm
  for (int l = 0; l < 12; ++l) transformer_layer(p.tensors, 768, false, false);
  p.tensors.push_back(768 * 768);  // pooler
  p.tensors.push_back(768);
  return p;
}

// Radford et al. 2019, the 124 M model (output layer tied to the token
// embedding): 124,439,808 parameters. Per 1024-token sequence: 85 M
// non-embedding MACs per token plus attention's 12 layers x 1024 x 768 x 2.
WorkloadProfile gpt2_small() {
  const double tokens = 1024, d = 768, layers = 12;
  const double macs = tokens * (85.0e6 + 2 * layers * tokens * d + 50257 * d);
  WorkloadProfile p{"gpt2-small",
                    "GPT-2 small (1024-token sequences): 124.4 M parameters, 148 tensors",
                    {},
                    kTrainPerForwardMac * macs};
  p.tensors = {50257 * 768, 1024 * 768};
  for (int l = 0; l < 12; ++l) transformer_layer(p.tensors, 768, true, true);
  p.tensors.push_back(768);  // final norm
  p.tensors.push_back(768);
  return p;
}

// A shipped trainable model, read from the model itself (one definition).
WorkloadProfile from_model(const std::string& name, const std::string& what, const Learner& m) {
  WorkloadProfile p{name, what, {}, m.train_flops_per_sample()};
  for (const auto& b : m.init(1)) p.tensors.push_back(std::uint64_t(b.values.size()));
  return p;
}

}  // namespace

std::uint64_t WorkloadProfile::parameters() const {
  std::uint64_t n = 0;
  for (auto t : tensors) n += t;
  return n;
}

const std::vector<WorkloadProfile>& workload_profiles() {
  static const std::vector<WorkloadProfile> all = {
      resnet50(),
      vgg16(),
      bert_base(),
      gpt2_small(),
      from_model("mlp-quickstart", "the quickstart's MLP on Fashion-MNIST (784-128-10)", Mlp(784, {128}, 10)),
      from_model("softmax-fashion", "softmax regression on Fashion-MNIST (784-10)", Mlp(784, {}, 10)),
  };
  return all;
}

const WorkloadProfile* find_profile(const std::string& name) {
  for (const auto& p : workload_profiles())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace geotrain
