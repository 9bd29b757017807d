"""Multi-scale training where the size is drawn once when the step is built (one size per run or per epoch,
outside the step): every call of the step resizes to the same size, so it compiles once.

Source: https://github.com/rwightman/efficientdet-pytorch/issues/65 (multi-scale training); near miss of drawing
the size inside every step (https://github.com/roboflow/rf-detr/pull/1436: one graph per scale on XLA).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.cls = nn.Linear(8, n_classes)

    def forward(self, imgs):
        return self.cls(self.body(imgs).mean((2, 3)))


def make_train_step(model, opt, seed=0, base=16, stride=4):
    sz = random.Random(seed).randrange(base // 2, base + base // 2 + stride) // stride * stride

    def train_step(imgs, y):
        imgs = F.interpolate(imgs, size=(sz, sz), mode="bilinear", align_corners=False)
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
