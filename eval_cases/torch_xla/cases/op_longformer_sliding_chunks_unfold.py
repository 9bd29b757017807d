"""Source: https://github.com/pytorch/xla/issues/2368

The sliding-window attention scores of the report's TPU port of Longformer: the query and key
sequences are cut into overlapping chunks of length 2w with stride w by `Tensor.unfold` (the TPU code
uses `unfold` where the GPU code uses `as_strided`), and the chunk scores come from one `einsum`.
Written as the negative; torch_xla 2.9.0 counts `aten::unfold_copy` and `aten::unfold_backward` as CPU
fallbacks in the training step, so it was renamed after the oracle.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def chunk(x, w):
    return x.unfold(1, 2 * w, w).transpose(-1, -2)  # XLA: op


class SlidingAttention(nn.Module):
    def __init__(self, d=8, w=2):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.w = w

    def forward(self, x):
        qc = chunk(self.q(x), self.w)
        kc = chunk(self.k(x), self.w)
        return torch.einsum("bcxd,bcyd->bcxy", qc, kc)


def make_train_step(model, opt):
    def train_step(x, target):
        opt.zero_grad()
        loss = F.mse_loss(model(x).mean(-1), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 8, 8, generator=g).to(device), torch.randn(2, 3, 4, generator=g).to(device)


def ENTRY(device):
    model = SlidingAttention().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
