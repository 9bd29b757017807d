"""An early-stopping callback in the style of Lightning's `EarlyStopping`, run at the end of every
validation epoch: the monitored metric is a device tensor, the best score is kept on the same device
(the fix of the report), and `if self.monitor_op(current - self.min_delta, self.best_score):` reads
the comparison in Python, which waits for the validation graph each time it runs.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/7936 ("Early Stopping throwing error for
training on TPUs": the best score moved to the metric's device by pytorch-lightning#7959; the
comparison itself stays a Python branch on a device value).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.monitor_op = torch.lt
        self.best_score = None
        self.wait_count = 0
        self.should_stop = False

    def on_validation_end(self, current):
        if self.best_score is None:
            self.best_score = torch.tensor(float("inf"), device=current.device)
        if self.monitor_op(current - self.min_delta, self.best_score):  # XLA: host
            self.best_score = current
            self.wait_count = 0
        else:
            self.wait_count += 1
            self.should_stop = self.wait_count >= self.patience


class Regressor(nn.Module):
    def __init__(self, d_in=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Loop:
    def __init__(self, model, callback):
        self.model, self.callback = model, callback

    @torch.no_grad()
    def validation_epoch(self, x, y):
        val_loss = F.mse_loss(self.model(x), y)
        self.callback.on_validation_end(val_loss)
        return val_loss


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 10, generator=g).to(device), torch.randn(16, generator=g).to(device)


def ENTRY(device):
    return Loop(Regressor().to(device), EarlyStopping()).validation_epoch, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
