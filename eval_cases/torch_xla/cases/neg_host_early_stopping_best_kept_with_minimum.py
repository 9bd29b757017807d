"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/1838

A near miss of the report's early-stopping comparison: the tracker keeps the best validation loss and
a count of passes without improvement as device tensors (`torch.minimum`, `torch.where`), and the
training loop reads `should_stop()` only between epochs, not inside the validation pass.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d=12, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


class DeviceEarlyStopping:
    def __init__(self, device, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best_score = torch.tensor(float("inf"), device=device)
        self.wait = torch.tensor(0, device=device)

    def update(self, current):
        improved = current < self.best_score - self.min_delta
        self.best_score = torch.minimum(self.best_score, current.detach())
        self.wait = torch.where(improved, torch.zeros_like(self.wait), self.wait + 1)

    def should_stop(self):
        return bool(self.wait >= self.patience)


class ValidationLoop:
    def __init__(self, model, stopper):
        self.model = model
        self.stopper = stopper

    @torch.no_grad()
    def run(self, x, y):
        self.model.eval()
        val_loss = F.cross_entropy(self.model(x), y)
        self.stopper.update(val_loss)
        return val_loss, self.stopper.best_score


# --- oracle ---
_KEEP = [ValidationLoop]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    return ValidationLoop(Classifier().to(device), DeviceEarlyStopping(device)).run, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
