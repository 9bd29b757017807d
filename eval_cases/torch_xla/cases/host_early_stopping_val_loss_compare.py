"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/1838

The early-stopping check from the report, run at the end of each validation pass on a TPU: the
monitored validation loss is an XLA tensor and the callback compares it with the best score in a
Python `if` (`if current < self.best_score - self.min_delta:`), which needs the value on the host.
One call is one validation pass over a batch plus the check.
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


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best_score = torch.tensor(float("inf"))
        self.wait = 0
        self.should_stop = False

    def check(self, current):
        if current < self.best_score.to(current.device) - self.min_delta:  # XLA: host
            self.best_score = current.detach()
            self.wait = 0
        else:
            self.wait += 1
            self.should_stop = self.wait >= self.patience


class ValidationLoop:
    def __init__(self, model, stopper):
        self.model = model
        self.stopper = stopper

    @torch.no_grad()
    def run(self, x, y):
        self.model.eval()
        val_loss = F.cross_entropy(self.model(x), y)
        self.stopper.check(val_loss)
        return val_loss


# --- oracle ---
_KEEP = [ValidationLoop]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    return ValidationLoop(Classifier().to(device), EarlyStopping()).run, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
