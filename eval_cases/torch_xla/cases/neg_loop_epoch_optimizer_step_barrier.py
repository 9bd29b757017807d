"""Source: https://github.com/pytorch/xla/issues/3043

The same epoch loop with `xm.optimizer_step(opt, barrier=True)`, which calls `mark_step()` after the
update: each batch is cut into its own graph, the same one every batch. The losses of the logged
batches are kept as device tensors and handed back; the caller reads them after the epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class MLP(nn.Module):
    def __init__(self, d=16, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


def make_epoch(model, opt, log):
    def run_epoch(xs, ys):
        logged = []
        for i, (x, y) in enumerate(zip(xs, ys)):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            xm.optimizer_step(opt, barrier=True)
            if i % 2 == 1:
                logged.append(loss.detach())
        log.append(logged)
        return torch.stack(logged)
    return run_epoch


# --- oracle ---
def _loader(device, seed, n=4):
    g = torch.Generator().manual_seed(seed)
    xs = [torch.randn(4, 16, generator=g).to(device) for _ in range(n)]
    ys = [torch.randint(0, 4, (4,), generator=g).to(device) for _ in range(n)]
    return xs, ys


def ENTRY(device):
    model = MLP().to(device)
    return make_epoch(model, torch.optim.SGD(model.parameters(), lr=0.05), []), _loader(device, 0)


def ALT_ARGS(device):
    return [_loader(device, s) for s in (1, 2)]


MARK_STEP = False  # the loop marks its own steps
