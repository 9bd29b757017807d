"""Mixed-precision style step with a manual loss scale: the unscaled gradients are checked for inf/NaN and
`if found_inf.item() == 0:` decides on the host whether to call optimizer.step().

Source: https://github.com/pytorch/xla/issues/3120 (RFC: the GradScaler's NaN check is an extra
host-device sync every step; the zero-gradients optimisation removes it).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, d=16, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt, scale=1024.0):
    def train_step(x, y):
        opt.zero_grad()
        (F.cross_entropy(model(x), y) * scale).backward()
        found_inf = torch.zeros((), device=x.device)
        for p in model.parameters():
            p.grad.div_(scale)
            found_inf += (~torch.isfinite(p.grad)).sum()
        if found_inf.item() == 0:  # XLA: host
            opt.step()
        return found_inf
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
