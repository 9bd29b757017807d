"""A Kaggle training function converted from GPU to TPU: after `xm.optimizer_step(optimizer)` it keeps
`losses.append(loss.item())` and a smoothed loss `np.mean(losses[-30:])` for the progress bar, so every
batch reads the loss back to the host in the middle of the step.

Source: https://github.com/pytorch/xla/issues/2789 ("Exception in device=TPU:3: Input contains NaN ...": the
`train_func` ported to torch_xla appends `loss.item()` and shows a smoothed loss on every batch).
"""
import numpy as np
import torch
import torch.nn as nn
import torch_xla.core.xla_model as xm


class MultiLabelHead(nn.Module):
    def __init__(self, d=20, n_labels=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_labels))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, optimizer, criterion, losses, log):
    def train_step(images, targets):
        logits = model(images)
        loss = criterion(logits, targets)
        loss.backward()
        xm.optimizer_step(optimizer)
        optimizer.zero_grad()
        losses.append(loss.item())  # XLA: host
        smooth_loss = np.mean(losses[-30:])
        log.append(f"loss: {losses[-1]:.5f}, smth: {smooth_loss:.5f}")
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 20, generator=g).to(device), (torch.rand(8, 6, generator=g) > 0.5).float().to(device)


def ENTRY(device):
    model = MultiLabelHead().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt, nn.BCEWithLogitsLoss(), [], []), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
