"""Copy the kept tokens into a new buffer with boolean masks on both sides:
`hx[keep_mask] = h[keep_mask]`.

Source: pytorch/xla issue #2661 (a hierarchical-attention forward that creates a buffer and fills it through
masks; the maintainers' answer: it makes the graph dynamic, rewrite with `torch.mul`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Hier(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.head = nn.Linear(d, 2)

    def forward(self, x, keep_mask):
        h = self.proj(x)
        hx = torch.zeros_like(h)
        hx[keep_mask] = h[keep_mask]  # XLA: shape
        return self.head(hx.mean(1))


def make_train_step(model, opt, device):
    def train_step(x, keep_mask, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, keep_mask), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(4, 6, 8, generator=g)
    keep = torch.rand(4, 6, generator=g) < 0.6
    return x.to(device), keep.to(device), torch.randint(0, 2, (4,), generator=g).to(device)


def ENTRY(device):
    model = Hier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt, device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
