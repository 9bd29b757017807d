"""CutMix applied in the training loop as in the Kaggle recipe of the report: a host coin flip
(`cutmixup_prob = random.random()`) decides whether to mix, and `rand_bbox` draws the box with
`np.random.randint` and `np.clip`; the box corners are Python ints used to slice the batch
(`X[:, :, bbx1:bbx2, bby1:bby2] = ...`). Every new box is a new set of constants in the traced graph.

Source: https://github.com/pytorch/xla/issues/2707 ("How to write pure Python function which can be ran on TPUs
while using PyTorch-XLA?": EfficientNet training with CutMix/MixUp in the loop "runs very slow when I
use custom augmentations").
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def rand_bbox(size, lam):
    W, H = size[2], size[3]
    cut_rat = np.sqrt(1.0 - lam)
    cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
    cx, cy = np.random.randint(W), np.random.randint(H)
    bbx1, bby1 = np.clip(cx - cut_w // 2, 0, W), np.clip(cy - cut_h // 2, 0, H)
    bbx2, bby2 = np.clip(cx + cut_w // 2, 0, W), np.clip(cy + cut_h // 2, 0, H)
    return int(bbx1), int(bby1), int(bbx2), int(bby2)


def cutmix(data, targets, alpha):
    indices = torch.arange(data.size(0) - 1, -1, -1, device=data.device)
    shuffled_targets = targets[indices]
    lam = np.random.beta(alpha, alpha)
    bbx1, bby1, bbx2, bby2 = rand_bbox(data.size(), lam)
    data = data.clone()
    data[:, :, bbx1:bbx2, bby1:bby2] = data[indices, :, bbx1:bbx2, bby1:bby2]  # XLA: recompile
    lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (data.size(-1) * data.size(-2)))
    return data, targets, shuffled_targets, lam


class SmallNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean((2, 3)))


def make_train_step(model, opt):
    def train_step(X, y):
        opt.zero_grad()
        if random.random() > 0.4:
            X, y, y_shuffled, lam = cutmix(X, y, 0.4)
            out = model(X)
            loss = lam * F.cross_entropy(out, y) + (1 - lam) * F.cross_entropy(out, y_shuffled)
        else:
            loss = F.cross_entropy(model(X), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    random.seed(0)
    np.random.seed(0)
    model = SmallNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
