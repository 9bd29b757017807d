"""Source: https://github.com/vllm-project/vllm/pull/14510

The logits step as the report fixed it: the live request count is padded up to a bucket
(`_bucket(num_reqs)`, the next power of two, at least 8) and the processor runs on the padded rows;
the caller drops the padding rows later, on the host. Every count seen here lands in one bucket, so
one graph serves them all.
"""
import torch
import torch.nn as nn


def _bucket(n, minimum=8):
    size = minimum
    while size < n:
        size *= 2
    return size


class LMHead(nn.Module):
    def __init__(self, d=16, vocab=40):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.proj = nn.Linear(d, vocab, bias=False)

    def forward(self, h):
        return self.proj(self.norm(h))


class ModelRunner:
    def __init__(self, head, temperature=0.7):
        self.head = head
        self.temperature = temperature

    @torch.no_grad()
    def compute_logprobs(self, hidden, num_reqs):
        h = hidden[:_bucket(num_reqs)]
        logits = self.head(h) / self.temperature
        return torch.log_softmax(logits, dim=-1)


# --- oracle ---
def _batch(device, seed, num_reqs):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), num_reqs


def ENTRY(device):
    return ModelRunner(LMHead().to(device)).compute_logprobs, _batch(device, 0, 5)


def ALT_ARGS(device):
    return [_batch(device, s, n) for s, n in ((1, 3), (2, 6), (3, 2))]
