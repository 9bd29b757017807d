"""A fairseq encoder layer with a hierarchical attention block: the token states `x` are copied
into a fresh buffer of sentence slots through boolean masks,
`hierarchical_x[~padding_mask] = x[x_mask]`, inside `forward`. The number of selected rows is read
from the masks' values, so every step leaves the graph for a data-dependent `nonzero`.

Source: https://github.com/pytorch/xla/issues/2661 ("Need help on the error message": fairseq
hierarchical attention on TPU; the maintainer answers that the masked copy "creates dynamic graphs"
and rewrites it as `torch.mul(hierarchical_x, ~ind) + torch.mul(x, ind)`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HierarchicalBlock(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads)
        self.out = nn.Linear(d, d)

    def forward(self, x, x_mask):
        # x: (T, B, C); x_mask: (B, T) True where the token opens a sentence slot
        residual = x
        hierarchical_x = torch.zeros_like(x)
        slot_mask = x_mask.transpose(0, 1)
        hierarchical_x[slot_mask] = x[slot_mask]  # XLA: shape
        h, _ = self.attn(hierarchical_x, hierarchical_x, hierarchical_x)
        return residual + self.out(h)


def make_train_step(block, opt):
    def train_step(x, x_mask, target):
        opt.zero_grad()
        loss = F.mse_loss(block(x, x_mask), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(10, 3, 16, generator=g)
    mask = torch.rand(3, 10, generator=g) > 0.6
    return x.to(device), mask.to(device), torch.randn(10, 3, 16, generator=g).to(device)


def ENTRY(device):
    block = HierarchicalBlock().to(device)
    return make_train_step(block, torch.optim.SGD(block.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
