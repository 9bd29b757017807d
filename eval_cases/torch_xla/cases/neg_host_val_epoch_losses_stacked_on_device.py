"""Source: https://github.com/pytorch/xla/issues/2712

The TPU form of the report's validation epoch: each batch's loss and predictions stay device tensors
in lists, and the epoch's mean loss and accuracy are computed once with `torch.stack`/`torch.cat` and
read after the loop (`epoch_metrics`), not per batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeafClassifier(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU())
        self.head = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.head(self.features(x).mean((2, 3)))


class Validator:
    def __init__(self, model):
        self.model = model
        self.val_loss = []
        self.preds = []
        self.targets = []

    def val_batch(self, data, target):
        self.model.eval()
        with torch.no_grad():
            logits = self.model(data)
            self.val_loss.append(F.cross_entropy(logits, target))
            self.preds.append(logits.argmax(1))
            self.targets.append(target)
        return logits

    def epoch_metrics(self):
        loss = torch.stack(self.val_loss).mean()
        acc = torch.cat(self.preds).eq(torch.cat(self.targets)).float().mean() * 100.0
        return loss.item(), acc.item()


# --- oracle ---
_KEEP = [Validator]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    return Validator(LeafClassifier().to(device)).val_batch, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
