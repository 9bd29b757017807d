"""Source: https://github.com/pytorch/xla/issues/3354

The same Lightning-style module logging its metrics as detached device tensors: the logger keeps
the tensors and the values are only converted when the logs are written after the epoch, so the
training step itself transfers nothing back to the host.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularNet(nn.Module):
    def __init__(self, n_in=12, classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, x):
        return self.net(x)


class LitTabular:
    def __init__(self, model, weight_decay=1e-4):
        self.model = model
        self.weight_decay = weight_decay
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.logged = {}

    def log(self, name, value):
        self.logged.setdefault(name, []).append(value.detach())

    def training_step(self, x, y):
        logits = self.model(x)
        ce = F.cross_entropy(logits, y)
        l2 = sum(p.pow(2).sum() for p in self.model.parameters())
        loss = ce + self.weight_decay * l2
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("train_loss", loss)
        self.log("train_acc", acc)
        self.log("l2", l2)
        return loss

    def optimization_step(self, x, y):
        self.opt.zero_grad()
        loss = self.training_step(x, y)
        loss.backward()
        self.opt.step()
        return loss.detach()

    def epoch_end_summary(self):
        return {name: torch.stack(values).mean().item() for name, values in self.logged.items()}


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 12, generator=g).to(device), torch.randint(0, 3, (16,), generator=g).to(device)


def ENTRY(device):
    return LitTabular(TabularNet().to(device)).optimization_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
