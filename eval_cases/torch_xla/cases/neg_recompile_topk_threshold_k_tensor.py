"""The TPU top-k sampler after the fix: the per-request `k` is a device tensor and the top-k set is
found with a threshold over the sorted logits (`logits < sorted.gather(-1, k - 1)` is masked), so
every batch traces the same graph whatever `k` is.

Source: https://github.com/vllm-project/vllm/pull/15891 ("[V1][TPU] TPU-optimized top-k implementation (2nd try)":
"a threshold-based approach to find the top-k set").
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


def apply_top_k_only(logits, k):
    sorted_logits = logits.sort(dim=-1, descending=True).values
    cutoff = sorted_logits.gather(-1, (k - 1).clamp(min=0).unsqueeze(-1))
    return logits.masked_fill(logits < cutoff, float("-inf"))


def make_sample_step(model):
    @torch.no_grad()
    def sample_step(ids, top_k):
        logits = model(ids)
        logits = apply_top_k_only(logits, top_k)
        return logits.argmax(-1)
    return sample_step


# --- oracle ---
def _batch(device, seed, k):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 64, (4, 6), generator=g)
    return ids.to(device), torch.full((4,), k, dtype=torch.long).to(device)


def ENTRY(device):
    model = TinyLM().to(device)
    return make_sample_step(model), _batch(device, 0, 8)


def ALT_ARGS(device):
    return [_batch(device, s, k) for s, k in ((1, 5), (2, 12), (3, 20))]
