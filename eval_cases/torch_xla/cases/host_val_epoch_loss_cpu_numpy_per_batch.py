"""Source: https://github.com/pytorch/xla/issues/2712

The validation epoch from the report ("xm.save() hangs inside epoch loop"), ported from GPU code: for
every batch it appends `loss.detach().cpu().numpy()` to a list and keeps the logits for the epoch's
accuracy. Each `.cpu()` waits for the batch's graph and copies the loss to the host. One call is one
validation batch.
"""
import numpy as np
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
        self.logits = []

    def val_batch(self, data, target):
        self.model.eval()
        with torch.no_grad():
            logits = self.model(data)
            loss = F.cross_entropy(logits, target)
            self.logits.append(logits)
            self.val_loss.append(loss.detach().cpu().numpy())  # XLA: host
        return logits

    def epoch_loss(self):
        return float(np.mean(self.val_loss))


# --- oracle ---
_KEEP = [Validator]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    return Validator(LeafClassifier().to(device)).val_batch, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
