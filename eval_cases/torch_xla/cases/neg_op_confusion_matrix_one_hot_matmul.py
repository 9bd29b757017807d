"""Source: https://github.com/Lightning-AI/torchmetrics/pull/1471

The XLA fallback torchmetrics switched to for `bincount`: count with fixed-size one-hot
encodings (`F.one_hot(..., num_classes)`), here as `one_hot(target).T @ one_hot(preds)`, which is
the confusion matrix without a data-dependent op.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d=10, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, n_classes))

    def forward(self, x):
        return self.net(x)


class ConfusionMatrix:
    def __init__(self, num_classes, device):
        self.num_classes = num_classes
        self.confmat = torch.zeros(num_classes, num_classes, device=device)

    def update(self, preds, target):
        t = F.one_hot(target, self.num_classes).float()
        p = F.one_hot(preds, self.num_classes).float()
        self.confmat += t.T @ p


def make_validation_step(model, metric):
    @torch.no_grad()
    def validation_step(x, y):
        preds = model(x).argmax(-1)
        metric.update(preds, y)
        return metric.confmat.diag().sum() / metric.confmat.sum()
    return validation_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 10, generator=g).to(device), torch.randint(0, 4, (16,), generator=g).to(device)


def ENTRY(device):
    return make_validation_step(Classifier().to(device), ConfusionMatrix(4, device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
