// Transformer profiles (see profiles.h for the counting conventions). One sample is one sequence
// of `tokens` tokens: every linear layer runs on `tokens` rows; self-attention adds the score and
// weighted-sum products, 2 x tokens^2 x width MACs per layer (computed in full, as dense kernels
// do, even under a causal mask).
#include <fmt/format.h>

#include "models/profiles.h"

namespace commsim {
namespace {

struct TransformerShape {
  int64_t width;   // model dimension
  int64_t hidden;  // feed-forward dimension
  int64_t tokens;  // sequence length of one sample
  int blocks;
};

void AddAttentionCore(LayerProfile& p, const std::string& name, const TransformerShape& t) {
  p.layers.push_back(ComputeLayer(
      name, 2.0 * static_cast<double>(t.tokens * t.tokens) * static_cast<double>(t.width)));
}

// GPT-2 block (pre-norm): ln_1, fused q/k/v projection, attention, output projection, ln_2, MLP.
void AddGpt2Block(LayerProfile& p, int i, const TransformerShape& t) {
  const std::string h = fmt::format("h.{}.", i);
  const int64_t w = t.width, n = t.tokens;
  p.layers.push_back(NormLayer(h + "ln_1", w, w * n));
  p.layers.push_back(LinearLayer(h + "attn.c_attn", w, 3 * w, true, n));
  AddAttentionCore(p, h + "attn.scores", t);
  p.layers.push_back(LinearLayer(h + "attn.c_proj", w, w, true, n));
  p.layers.push_back(NormLayer(h + "ln_2", w, w * n));
  p.layers.push_back(LinearLayer(h + "mlp.c_fc", w, t.hidden, true, n));
  p.layers.push_back(LinearLayer(h + "mlp.c_proj", t.hidden, w, true, n));
}

// BERT encoder layer (post-norm): separate query/key/value, attention, output dense + norm,
// feed-forward + norm.
void AddBertLayer(LayerProfile& p, int i, const TransformerShape& t) {
  const std::string e = fmt::format("encoder.layer.{}.", i);
  const int64_t w = t.width, n = t.tokens;
  for (const char* part : {"query", "key", "value"}) {
    p.layers.push_back(LinearLayer(e + "attention.self." + part, w, w, true, n));
  }
  AddAttentionCore(p, e + "attention.scores", t);
  p.layers.push_back(LinearLayer(e + "attention.output.dense", w, w, true, n));
  p.layers.push_back(NormLayer(e + "attention.output.LayerNorm", w, w * n));
  p.layers.push_back(LinearLayer(e + "intermediate.dense", w, t.hidden, true, n));
  p.layers.push_back(LinearLayer(e + "output.dense", t.hidden, w, true, n));
  p.layers.push_back(NormLayer(e + "output.LayerNorm", w, w * n));
}

}  // namespace

// GPT-2 small (Radford et al. 2019; Hugging Face gpt2): 12 blocks of width 768, vocabulary
// 50,257, context 1,024 tokens (one sample = one full context). The output projection shares the
// token embedding's weights, so its parameters sit in the first layer (their gradient is complete
// only when the backward pass reaches the embedding) and its FLOPs in a last parameter-free layer.
LayerProfile Gpt2SmallProfile() {
  const TransformerShape t{768, 3072, 1024, 12};
  constexpr int64_t kVocab = 50257;
  LayerProfile p{"gpt2_small", {}};
  p.layers.push_back(Layer{"wte", kVocab * t.width, 0, 0});
  p.layers.push_back(Layer{"wpe", t.tokens * t.width, 0, 0});
  for (int i = 0; i < t.blocks; ++i) AddGpt2Block(p, i, t);
  p.layers.push_back(NormLayer("ln_f", t.width, t.width * t.tokens));
  p.layers.push_back(ComputeLayer("lm_head (tied to wte)", static_cast<double>(t.width * kVocab) *
                                                               static_cast<double>(t.tokens)));
  return p;
}

// BERT-base (Devlin et al. 2019; Hugging Face BertModel, bert-base-uncased): 12 layers of width
// 768, vocabulary 30,522, 512 positions, 2 token types, pooler; no pre-training heads. One
// sample = 128 tokens, the sequence length of 90% of BERT's pre-training steps.
LayerProfile BertBaseProfile() {
  const TransformerShape t{768, 3072, 128, 12};
  LayerProfile p{"bert_base", {}};
  p.layers.push_back(Layer{"embeddings.word_embeddings", 30522 * t.width, 0, 0});
  p.layers.push_back(Layer{"embeddings.position_embeddings", 512 * t.width, 0, 0});
  p.layers.push_back(Layer{"embeddings.token_type_embeddings", 2 * t.width, 0, 0});
  p.layers.push_back(NormLayer("embeddings.LayerNorm", t.width, t.width * t.tokens));
  for (int i = 0; i < t.blocks; ++i) AddBertLayer(p, i, t);
  p.layers.push_back(LinearLayer("pooler.dense", t.width, t.width, true));  // [CLS] token only
  return p;
}

}  // namespace commsim
