"""Source: https://github.com/pytorch/xla/issues/3043

An epoch loop modelled on the report's MNIST/BERT comparison: a plain loader (no `MpDeviceLoader`),
`xm.optimizer_step(opt)` with its default `barrier=False`, and the loss logged with `loss.item()`
every other batch. The maintainers' first answer assumed `optimizer_step` marks the step; it does not
without `barrier=True`, so nothing cuts the lazy graph between batches.
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
    def run_epoch(xs, ys):  # XLA: loop
        for i, (x, y) in enumerate(zip(xs, ys)):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            xm.optimizer_step(opt)
            if i % 2 == 1:
                log.append(loss.item())
        return loss.detach()
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


MARK_STEP = False  # the user loop calls no mark_step
