"""A TPU sampler that applies each request batch's top-k with `torch.topk(logits, k)`, where `k` is the
batch's Python int sampling parameter. The result's shape is `(batch, k)`, so every new `k` traces a
new graph and compiles again.

Source: https://github.com/vllm-project/vllm/pull/15891 ("[V1][TPU] TPU-optimized top-k implementation (2nd try)":
"the return shape of torch.topk depends on k, which means an XLA recompilation is triggered everytime k
changes").
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.head(torch.tanh(self.emb(ids).mean(1)))


def apply_top_k(logits, k):
    top_vals, top_idx = torch.topk(logits, k, dim=-1)  # XLA: recompile
    masked = torch.full_like(logits, float("-inf"))
    return masked.scatter(-1, top_idx, top_vals)


def make_sample_step(model):
    @torch.no_grad()
    def sample_step(ids, top_k):
        logits = model(ids)
        logits = apply_top_k(logits, top_k)
        return logits.argmax(-1)
    return sample_step


# --- oracle ---
def _batch(device, seed, k):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 64, (4, 6), generator=g).to(device), k


def ENTRY(device):
    model = TinyLM().to(device)
    return make_sample_step(model), _batch(device, 0, 8)


def ALT_ARGS(device):
    return [_batch(device, s, k) for s, k in ((1, 5), (2, 12), (3, 20))]
