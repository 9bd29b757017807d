"""Source: https://github.com/Lightning-AI/torchmetrics/issues/1466

A validation step that updates a multiclass confusion matrix the torchmetrics way,
`torch.bincount(target * num_classes + preds, minlength=num_classes ** 2)`; the report found
`bincount` (and `_unique2`) running on the CPU under XLA.
"""
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, d=10, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, n_classes))

    def forward(self, x):
        return self.net(x)


class ConfusionMatrix:
    def __init__(self, num_classes, device):
        self.num_classes = num_classes
        self.confmat = torch.zeros(num_classes, num_classes, dtype=torch.long, device=device)

    def update(self, preds, target):
        unique_mapping = target.long() * self.num_classes + preds.long()
        bins = torch.bincount(unique_mapping, minlength=self.num_classes ** 2)  # XLA: op
        self.confmat += bins.reshape(self.num_classes, self.num_classes)


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
