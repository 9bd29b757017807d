"""The same manual loss-scale step written sync-free, as in the zero-gradients optimisation: gradients are
nan_to_num'ed and multiplied by (1 - found_inf) so optimizer.step() always runs and no value is read.

Source: https://github.com/pytorch/xla/issues/3120 (RFC: zero the gradients instead of skipping the step,
removing the per-step host sync of GradScaler).
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
        grads = [p.grad for p in model.parameters()]
        found_inf = torch.stack([(~torch.isfinite(g)).any() for g in grads]).any().to(x.dtype)
        keep = 1.0 - found_inf
        for g in grads:
            g.div_(scale).nan_to_num_(0.0, 0.0, 0.0).mul_(keep)
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
