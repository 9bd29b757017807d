"""A binary confusion-matrix metric updated every evaluation step, written like torchmetrics'
`BinaryConfusionMatrix` with argument validation on: the update checks that the targets only hold
allowed values with `torch.unique`, then counts the four cells with `torch.bincount`. Both calls
leave the graph on an XLA device (the report names `_unique2` and `bincount`).

Source: https://github.com/pytorch/xla/issues/4511 (torchmetrics `ConfusionMatrix(task="binary")` on TPU: "The
functions causing compilations are `_unique2` and `bincount`").
"""
import torch
import torch.nn as nn


class BinaryConfusionMatrix:
    def __init__(self, device, threshold=0.5, validate_args=True):
        self.threshold, self.validate_args = threshold, validate_args
        self.confmat = torch.zeros(2, 2, dtype=torch.long, device=device)

    def update(self, preds, target):
        if self.validate_args:
            unique_values = torch.unique(target)  # XLA: op
            if torch.any((unique_values != 0) & (unique_values != 1)):
                raise RuntimeError("Detected values in `target` other than 0 and 1")
        preds = (preds.sigmoid() > self.threshold).long()
        bins = torch.bincount(target * 2 + preds, minlength=4)  # XLA: op
        self.confmat += bins.reshape(2, 2)


class Scorer(nn.Module):
    def __init__(self, d_in=12):
        super().__init__()
        self.fc = nn.Linear(d_in, 1)

    def forward(self, x):
        return self.fc(x).squeeze(-1)


def make_eval_step(model, metric):
    @torch.no_grad()
    def eval_step(x, y):
        metric.update(model(x), y)
        return metric.confmat.clone()
    return eval_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 12, generator=g).to(device), torch.randint(0, 2, (16,), generator=g).to(device)


def ENTRY(device):
    model = Scorer().to(device)
    return make_eval_step(model, BinaryConfusionMatrix(device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
