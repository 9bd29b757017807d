"""Source: https://github.com/huggingface/accelerate/issues/29

The same epoch written for a TPU: `xm.optimizer_step(opt)` and `xm.mark_step()` after every
batch cut the graph per batch, and the loss is accumulated on the device and read once per
epoch after the last sync.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class ShopeeHead(nn.Module):
    def __init__(self, d=12, n_classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 24), nn.ReLU(), nn.Linear(24, n_classes))

    def forward(self, x):
        return self.net(x)


def make_epoch(model, opt, log):
    def run_epoch(xs, ys):
        total = torch.zeros((), device=xs[0].device)
        for x, y in zip(xs, ys):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            xm.optimizer_step(opt)
            total += loss.detach()
            xm.mark_step()
        log.append(total / len(xs))
        return loss.detach()
    return run_epoch


# --- oracle ---
def _loader(device, seed, n=3):
    g = torch.Generator().manual_seed(seed)
    xs = [torch.randn(4, 12, generator=g).to(device) for _ in range(n)]
    ys = [torch.randint(0, 5, (4,), generator=g).to(device) for _ in range(n)]
    return xs, ys


def ENTRY(device):
    model = ShopeeHead().to(device)
    return make_epoch(model, torch.optim.SGD(model.parameters(), lr=0.05), []), _loader(device, 0)


def ALT_ARGS(device):
    return [_loader(device, s) for s in (1, 2)]


MARK_STEP = False  # the case syncs itself
