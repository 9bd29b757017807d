"""Source: https://github.com/vllm-project/vllm/pull/14510

A TPU model runner's logits step: the hidden states come padded to the token bucket, the runner keeps
the rows of the live requests, `hidden[:num_reqs]`, and applies the LM head and the logits processor
(temperature, log-softmax) to them. `num_reqs` varies from step to step, so each new count is a new
shape for the processor's graph; the report ("Fix the recompiling issue in logits processor after
warmup") padded `num_reqs` to buckets instead.
"""
import torch
import torch.nn as nn


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
        h = hidden[:num_reqs]  # XLA: recompile
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
