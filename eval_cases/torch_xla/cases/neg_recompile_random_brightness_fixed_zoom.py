"""Augmentation on the device with a random factor that is only multiplied in (brightness,
`x * rng.uniform(0.8, 1.2)`) and a fixed 2x zoom (`scale_factor=2.0`): the Python float is uploaded as data
and the output size never changes, so the step compiles once.

Source: https://github.com/pytorch/xla/blob/master/docs/source/learn/troubleshoot.md (Python scalars and
recompilation); near miss of https://github.com/roboflow/rf-detr/pull/1436 (random resizing: one graph per size).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).amax((2, 3)))


def make_train_step(model, opt):
    rng = random.Random(5)

    def train_step(x, y):
        x = x * rng.uniform(0.8, 1.2)
        x = F.interpolate(x, scale_factor=2.0, mode="nearest")
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
