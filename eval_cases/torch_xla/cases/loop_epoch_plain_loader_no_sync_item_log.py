"""Source: https://github.com/huggingface/accelerate/issues/29

A Kaggle/Colab TPU loop from the report: a plain `DataLoader` (no parallel loader), the usual
`optimizer.step()`, the average loss logged with `loss.item()`, and no `mark_step`/sync anywhere:
nothing cuts the lazy graph between batches, so each `.item()` compiles a graph that holds
everything since the last read.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ShopeeHead(nn.Module):
    def __init__(self, d=12, n_classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 24), nn.ReLU(), nn.Linear(24, n_classes))

    def forward(self, x):
        return self.net(x)


def make_epoch(model, opt, log):
    def run_epoch(xs, ys):  # XLA: loop
        avg = 0.0
        for x, y in zip(xs, ys):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            avg += loss.item() / len(xs)
        log.append(avg)
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


MARK_STEP = False  # the user loop calls no mark_step
