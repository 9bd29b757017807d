"""Source: https://github.com/pytorch/pytorch/issues/128319

A compiled model whose `forward` counts its own calls in a Python attribute (`self.num_updates
+= 1`) and uses the count for a warm-up ramp of its adapter branch; dynamo guards on the value of
a counter-like attribute ("today there are 4 compilations" in the report). Written as a failing
case and renamed after the oracle: with `backend="openxla"` and `dynamic=False`, torch 2.9 /
torch_xla 2.9 compile no XLA graph in the steady steps (4 compiles, all in the first two steps),
the Python float ramp reaching the graph as data rather than as a new constant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdapterClassifier(nn.Module):
    def __init__(self, d=16, n_classes=5, ramp_steps=100):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
        self.adapter = nn.Sequential(nn.Linear(d, 4), nn.ReLU(), nn.Linear(4, d))
        self.head = nn.Linear(d, n_classes)
        self.ramp_steps = ramp_steps
        self.num_updates = 0

    def forward(self, x):
        self.num_updates += 1
        ramp = min(1.0, self.num_updates / self.ramp_steps)
        h = self.backbone(x)
        return self.head(h + ramp * self.adapter(h))


class Trainer:
    def __init__(self, model, device):
        self.model = model
        self.forward = torch.compile(model, backend="openxla", dynamic=False) if device.type == "xla" else model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)

    def train_step(self, x, y):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.forward(x), y)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 5, (8,), generator=g).to(device)


def ENTRY(device):
    return Trainer(AdapterClassifier().to(device), device).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
