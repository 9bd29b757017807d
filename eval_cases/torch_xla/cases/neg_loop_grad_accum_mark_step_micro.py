"""Source: https://github.com/huggingface/accelerate/pull/2453

The same gradient-accumulation epoch with the report's fix: `xm.mark_step()` after every
micro-batch's backward, so each micro-batch (and each optimizer step) is its own graph, the same one
every time; the running loss stays a device tensor and is returned instead of printed.
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


def make_epoch(model, opt, log, accum=2):
    def run_epoch(xs, ys):
        running = []
        for i, (x, y) in enumerate(zip(xs, ys)):
            loss = F.cross_entropy(model(x), y) / accum
            loss.backward()
            if (i + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
                running.append(loss.detach())
            xm.mark_step()
        log.append(running)
        return torch.stack(running).sum()
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
