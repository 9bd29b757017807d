"""Random-zoom augmentation on the device: each step rescales the batch by a factor drawn with
`random.uniform` (`F.interpolate(x, scale_factor=s)`), so the feature map's size changes from step to step.

Source: https://github.com/roboflow/rf-detr/pull/1436 (random resizing in the training step is one graph per size
on XLA; the project pads instead on TPU); https://github.com/pytorch/xla/issues/2405 (resizing inside a PyTorch
Lightning training step made TPU training slow).
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
    rng = random.Random(2)

    def train_step(x, y):
        s = rng.uniform(0.7, 1.3)
        x = F.interpolate(x, scale_factor=s, mode="nearest")  # XLA: recompile
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 20, 20, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
