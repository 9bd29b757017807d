"""Source: https://github.com/huggingface/accelerate/pull/2453

A gradient-accumulation epoch on an XLA device: micro-batches are accumulated two at a time, the
optimizer steps after every second backward, and the running loss is printed with `.item()` at each
optimizer step; no `mark_step` anywhere. The report ("Use grad-accum on TPU") made accelerate call
`xm.mark_step` during accumulation on XLA; without it the pending graph spans every micro-batch since
the last read and is compiled anew at each `.item()`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d=16, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


def make_epoch(model, opt, log, accum=2):
    def run_epoch(xs, ys):  # XLA: loop
        running = 0.0
        for i, (x, y) in enumerate(zip(xs, ys)):
            loss = F.cross_entropy(model(x), y) / accum
            loss.backward()
            if (i + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
                running += loss.item()
        log.append(running)
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
