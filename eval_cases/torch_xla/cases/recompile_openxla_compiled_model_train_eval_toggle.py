"""Source: https://github.com/pytorch/pytorch/issues/110803

A classifier compiled once (`torch.compile(model, backend="openxla")`) and used both for the training
step and, in the same iteration, for a quick evaluation on a held-out batch: `model.eval()` before the
evaluation, `model.train()` after. The report: "Switching between `model.train()` and `model.eval()`
on a torch.compile'd model causes guard failures every time, due to `__nn_module_guard_0(L['self'])`
... an unbounded number of recompiles".
The oracle's label is `compile_error`: with torch 2.9 / torch_xla 2.9 the compiled call fails on the XLA
device (`mm(): cannot matrix-multiply tensors f32[8,32] and f32[4,32]` in `self.head(self.body(x))`);
the eager run is fine.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.0))
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.body(x))


class Trainer:
    def __init__(self, device):
        self.model = SmallNet().to(device)
        self.compiled = torch.compile(self.model, backend="openxla") if device.type == "xla" else self.model
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)

    def step(self, x, y, x_val, y_val):
        self.model.train()  # XLA: recompile
        self.opt.zero_grad()
        loss = F.cross_entropy(self.compiled(x), y)
        loss.backward()
        self.opt.step()
        self.model.eval()
        with torch.no_grad():
            val_loss = F.cross_entropy(self.compiled(x_val), y_val)
        self.model.train()
        return loss.detach(), val_loss


# --- oracle ---
_KEEP = [Trainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(8, 20, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device),
            torch.randn(8, 20, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device))


def ENTRY(device):
    return Trainer(device).step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
