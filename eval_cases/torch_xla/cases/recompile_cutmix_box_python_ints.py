"""Source: https://github.com/mosaicml/composer/pull/69 ("Add CutMix method": `rx, ry, rw, rh =
rand_bbox(x.shape[2], x.shape[3], cutmix_lambda)` then slice assignment with those bounds).

Image-classification step with CutMix: the box is drawn on the host (`rand_bbox` returns Python
ints from the sampled lambda) and pasted with slices at those ints,
`x_cutmix[:, :, rx:rw, ry:rh] = x_cutmix[shuffled_idx, :, rx:rw, ry:rh]`.
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallResNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(F.relu(self.bn(self.conv(x))).mean((2, 3)))


def rand_bbox(h, w, lam, rng):
    cut = np.sqrt(1.0 - lam)
    ch, cw = int(h * cut), int(w * cut)
    cy, cx = rng.randint(0, h - 1), rng.randint(0, w - 1)
    return max(cy - ch // 2, 0), max(cx - cw // 2, 0), min(cy + ch // 2, h), min(cx + cw // 2, w)


def make_step(model, opt, alpha=1.0, seed=0):
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)

    def train_step(x, y):
        lam = float(nrng.beta(alpha, alpha))
        shuffled_idx = torch.arange(x.shape[0] - 1, -1, -1, device=x.device)
        rx, ry, rw, rh = rand_bbox(x.shape[2], x.shape[3], lam, rng)
        x_cutmix = torch.clone(x)
        x_cutmix[:, :, rx:rw, ry:rh] = x_cutmix[shuffled_idx, :, rx:rw, ry:rh]  # XLA: recompile
        area = (rw - rx) * (rh - ry) / (x.shape[2] * x.shape[3])
        opt.zero_grad()
        logits = model(x_cutmix)
        loss = (1 - area) * F.cross_entropy(logits, y) + area * F.cross_entropy(logits, y[shuffled_idx])
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = SmallResNet().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
