"""A TPU training step with `terminate_on_nan` switched on: after the backward pass it checks the loss
and then every parameter with `if not torch.isfinite(p).all(): raise ValueError(...)`. Each check turns a
device boolean into a Python bool, so the step reads one value back to the host per parameter.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/4302 ("Using `terminate_on_nan=True` on TPU leads
to huge slowdowns": `detect_nan_tensors()` is called every step and makes resnet50-scale forward passes
about 5x slower).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def detect_nan_tensors(loss, model):
    if not torch.isfinite(loss).all():  # XLA: host
        raise ValueError("The loss returned in `training_step` is nan or inf.")
    for name, p in model.named_parameters():
        if not torch.isfinite(p).all():
            raise ValueError(f"Detected nan and/or inf values in `{name}`.")


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean((2, 3)))


def make_train_step(model, opt, terminate_on_nan=True):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if terminate_on_nan:
            detect_nan_tensors(loss, model)
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 4, (4,), generator=g).to(device)


def ENTRY(device):
    model = ConvNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
