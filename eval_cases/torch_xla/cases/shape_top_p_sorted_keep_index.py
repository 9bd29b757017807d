"""Source: https://github.com/huggingface/optimum-tpu/pull/5

Token selection on the TPU in a text-generation server: nucleus (top-p) filtering that keeps
the sorted candidates whose cumulative probability is below `top_p` by boolean indexing
(`sorted_idx[keep]`), then picks the best kept token; the PR found the token-processing code
faster on the CPU because of the recompilations it caused on the device.
"""
import torch
import torch.nn as nn


class LMHead(nn.Module):
    def __init__(self, d=16, vocab=50):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.proj = nn.Linear(d, vocab)

    def forward(self, h):
        return self.proj(self.norm(h))


def top_p_select(logits, top_p=0.8):
    probs = logits.softmax(-1)
    sorted_probs, sorted_idx = probs.sort(descending=True)
    keep = sorted_probs.cumsum(-1) - sorted_probs < top_p
    kept_idx = sorted_idx[keep]  # XLA: shape
    kept_logits = logits[kept_idx]
    return kept_idx[kept_logits.argmax()]


def make_decode_step(head):
    @torch.no_grad()
    def decode_step(hidden):
        return top_p_select(head(hidden)[0])
    return decode_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(1, 16, generator=g).mul(3).to(device),)


def ENTRY(device):
    return make_decode_step(LMHead().to(device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
