"""Source: https://github.com/pytorch/xla/blob/master/docs/source/perf/recompilation.md (PyTorch/XLA
"Troubleshooting recompilations", 3. From control flow: `if x[0][0] == 3: ...` must execute and
materialize the value, and each branch combination is another graph).

Classifier step that picks its loss branch from a tensor value (`if logits[0][0] > 0:`), so Python
needs the value before it can trace the rest of the step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, d=12, n=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n))

    def forward(self, x):
        return self.body(x)


def make_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        logits = model(x)
        if logits[0][0] > 0:  # XLA: host
            loss = F.cross_entropy(logits, y)
        else:
            loss = F.cross_entropy(logits, y, label_smoothing=0.1)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = Net().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
