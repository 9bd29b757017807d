"""The confusion-matrix metric with torchmetrics' deterministic `_bincount`: with a known number of
bins the counts are taken by comparing the values with `torch.arange(minlength)` and summing, so the
result's shape is `minlength` whatever the batch holds and the update stays in the XLA graph.

Source: https://github.com/Lightning-AI/torchmetrics/pull/2184 ("Use arange and repeat for deterministic bincount":
`torch.arange` and `repeat` replace the for loop / `torch.bincount` when deterministic or on XLA).
"""
import torch
import torch.nn as nn


def _bincount(x, minlength):
    mesh = torch.arange(minlength, device=x.device).repeat(len(x), 1)
    return torch.eq(x.reshape(-1, 1), mesh).sum(dim=0)


class ConfusionMatrix:
    def __init__(self, num_classes, device):
        self.num_classes = num_classes
        self.confmat = torch.zeros(num_classes, num_classes, dtype=torch.long, device=device)

    def update(self, preds, target):
        unique_mapping = target * self.num_classes + preds
        bins = _bincount(unique_mapping, minlength=self.num_classes ** 2)
        self.confmat += bins.view(self.num_classes, self.num_classes)

    def accuracy(self):
        return self.confmat.diag().sum() / self.confmat.sum().clamp(min=1)


def make_val_step(model, metric):
    @torch.no_grad()
    def val_step(x, y):
        preds = model(x).argmax(-1)
        metric.update(preds, y)
        return metric.accuracy()
    return val_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 8, generator=g).to(device), torch.randint(0, 4, (16,), generator=g).to(device)


def ENTRY(device):
    model = nn.Linear(8, 4).to(device)
    return make_val_step(model, ConfusionMatrix(4, device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
