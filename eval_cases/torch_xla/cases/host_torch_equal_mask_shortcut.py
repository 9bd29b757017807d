"""Attention layer that skips the masking work when the padding mask equals an all-ones mask,
tested with `torch.equal` in the forward of a training step.

Source: https://github.com/pytorch/pytorch/issues/44707 ("torch.equal(t1, t2) slower than
torch.eq(t1, t2).all()": `torch.equal` returns a Python bool, so the device waits for the comparison
before the next op is issued; the report's code compares tensors after self-attention).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedAttention(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, mask):
        q, k, v = self.qkv(x).chunk(3, -1)
        scores = q @ k.transpose(1, 2) / 4.0
        if not torch.equal(mask, torch.ones_like(mask)):  # XLA: host
            scores = scores.masked_fill(~mask[:, None, :], -1e4)
        return self.proj(scores.softmax(-1) @ v)


class Classifier(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.attn = MaskedAttention(d)
        self.head = nn.Linear(d, 3)

    def forward(self, x, mask):
        return self.head(self.attn(x, mask).mean(1))


def make_train_step(model, opt):
    def train_step(x, mask, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, mask), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    mask = torch.ones(4, 6, dtype=torch.bool)
    mask[1, 4:] = False
    return (torch.randn(4, 6, 16, generator=g).to(device), mask.to(device),
            torch.randint(0, 3, (4,), generator=g).to(device))


def ENTRY(device):
    model = Classifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
