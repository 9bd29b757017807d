"""Batched GPT-2 style scoring on TPU that picks each sequence's last real token with
`row.nonzero().max()` over the attention mask. `nonzero` has a data-dependent output shape: torch_xla
runs it on the CPU, reads the mask back, and the gathered positions depend on the lengths.

Source: https://github.com/pytorch/xla/issues/5031 ("Lower count_nonzero": requested "for fixing autoregressive
decoding in TPUs for models like GPT-2 which uses positional embedding"; the maintainers note that counting
non-zeros is not a dynamic op and needs no `nonzero`).
"""
import torch
import torch.nn as nn


class TinyGPT(nn.Module):
    def __init__(self, vocab=50, d=16, max_len=12):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_len, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, attention_mask):
        pos = torch.arange(ids.size(1), device=ids.device).unsqueeze(0)
        h = torch.tanh(self.wte(ids) + self.wpe(pos)) * attention_mask.unsqueeze(-1)
        return self.head(h)


def make_score_step(model):
    @torch.no_grad()
    def score_step(ids, attention_mask):
        logits = model(ids, attention_mask)
        last = torch.stack([row.nonzero().max() for row in attention_mask])  # XLA: shape
        return logits[torch.arange(ids.size(0), device=ids.device), last].argmax(-1)
    return score_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 50, (4, 12), generator=g)
    lengths = torch.randint(3, 13, (4,), generator=g)
    mask = (torch.arange(12).unsqueeze(0) < lengths.unsqueeze(1)).long()
    return ids.to(device), mask.to(device)


def ENTRY(device):
    return make_score_step(TinyGPT().to(device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
