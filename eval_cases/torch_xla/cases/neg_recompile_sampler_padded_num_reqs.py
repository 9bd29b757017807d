"""Source: https://github.com/vllm-project/vllm/pull/15553

The same sampler after the fix: the sampling tensors keep the padded request count, and rows past
`num_reqs` are padding that the caller drops on the host after the step (the temperature of a
padding row is 1.0). Every step has the same shapes, so the sampling graph compiles once.
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
    def forward(self, hidden, temperatures):
        logits = self.lm_head(self.norm(hidden)) / temperatures[:, None]
        probs = torch.softmax(logits, dim=-1)
        return probs.argmax(-1), probs.max(-1).values


def pad_temperatures(temps, max_num_reqs=MAX_NUM_REQS):
    padded = torch.ones(max_num_reqs)
    padded[:temps.shape[0]] = temps
    return padded


# --- oracle ---
def _step(device, seed, num_reqs):
    g = torch.Generator().manual_seed(seed)
    hidden = torch.randn(MAX_NUM_REQS, 16, generator=g)
    temps = pad_temperatures(torch.rand(num_reqs, generator=g) + 0.5)
    return hidden.to(device), temps.to(device)


def ENTRY(device):
    return Sampler().to(device), _step(device, 0, 3)


def ALT_ARGS(device):
    return [_step(device, 1, 5), _step(device, 2, 2), _step(device, 3, 7)]
