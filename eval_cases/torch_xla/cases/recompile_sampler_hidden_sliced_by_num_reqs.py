"""Source: https://github.com/vllm-project/vllm/pull/15553

The sampling half of a TPU model runner: the hidden states of the last token of each request are
computed for a padded batch, then sliced to the `num_reqs` requests that are really scheduled
before the LM head, the temperature and the argmax. `num_reqs` is a Python int that changes from
one scheduling step to the next, so the sliced shapes change and the sampling graph is compiled
again (the fix keeps the sampling tensors at the padded request count).
"""
import torch
import torch.nn as nn

MAX_NUM_REQS = 8


class Sampler(nn.Module):
    def __init__(self, d=16, vocab=64):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    @torch.no_grad()
    def forward(self, hidden, temperatures, num_reqs):
        hidden = hidden[:num_reqs]  # XLA: recompile
        logits = self.lm_head(self.norm(hidden)) / temperatures[:num_reqs, None]
        probs = torch.softmax(logits, dim=-1)
        return probs.argmax(-1), probs.max(-1).values


# --- oracle ---
def _step(device, seed, num_reqs):
    g = torch.Generator().manual_seed(seed)
    hidden = torch.randn(MAX_NUM_REQS, 16, generator=g)
    temps = torch.rand(MAX_NUM_REQS, generator=g) + 0.5
    return hidden.to(device), temps.to(device), num_reqs


def ENTRY(device):
    return Sampler().to(device), _step(device, 0, 3)


def ALT_ARGS(device):
    return [_step(device, 1, 5), _step(device, 2, 2), _step(device, 3, 7)]
