"""shape_span_mask_where_then_assign.

Source: https://github.com/pytorch/pytorch/issues/57515 (`a[mask] = val` goes through
`index_put` with the mask turned into indices; on XLA that is `aten::nonzero` on the CPU,
https://github.com/pytorch/xla/issues/4248). The span mask is built once from the batch and
used both as `torch.where`'s condition and as an assignment index.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Denoiser(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt):
    def train_step(x, spans):
        opt.zero_grad()
        corrupt = spans["corrupt"]
        noisy = torch.where(corrupt, torch.zeros_like(x), x)
        out = model(noisy)
        target = out.detach().clone()
        target[corrupt] = x[corrupt]  # XLA: shape
        loss = F.mse_loss(out, target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, b=8, d=16):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(b, d, generator=g)
    corrupt = torch.rand(b, d, generator=g) < 0.25
    corrupt[0, 0] = True
    return x.to(device), {"corrupt": corrupt.to(device)}


def ENTRY(device):
    model = Denoiser().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
