"""Multi-scale detector training: every step resizes the batch to a randomly drawn square size before the
forward (`sz = rng.randrange(...)`, `F.interpolate(imgs, size=(sz, sz))`).

Source: https://github.com/rwightman/efficientdet-pytorch/issues/65 (multi-scale training with a size drawn by
`random.randrange` per batch); https://github.com/roboflow/rf-detr/pull/1436 (multi_scale=True on XLA: "each scale
= separate graph trace", so the project turns it off on TPU).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.cls = nn.Linear(8, n_classes)

    def forward(self, imgs):
        return self.cls(self.body(imgs).mean((2, 3)))


def make_train_step(model, opt, base=16, stride=4):
    rng = random.Random(0)  # one stream per run: the eager and XLA runs draw the same sizes

    def train_step(imgs, y):
        sz = rng.randrange(base // 2, base + base // 2 + stride) // stride * stride
        imgs = F.interpolate(imgs, size=(sz, sz), mode="bilinear", align_corners=False)  # XLA: recompile
        opt.zero_grad()
        loss = F.cross_entropy(model(imgs), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = TinyDetector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
