"""Source: https://github.com/pytorch/xla/issues/2461

CutMix flower classification on a Kaggle TPU: each step draws a mixing ratio and a random box,
computes the box corners as Python ints (`rand_bbox`) and pastes the patch of a shuffled batch with
a slice assignment `images[:, :, x1:x2, y1:y2] = ...`. The corners are new ints at every step, and
each new set of slice bounds is a new graph for torch_xla.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rand_bbox(size, lam):
    w, h = size[2], size[3]
    cut_rat = math.sqrt(1.0 - lam)
    cut_w, cut_h = int(w * cut_rat), int(h * cut_rat)
    cx, cy = int(torch.randint(w, (1,))), int(torch.randint(h, (1,)))
    bbx1, bbx2 = min(max(cx - cut_w // 2, 0), w), min(max(cx + cut_w // 2, 0), w)
    bby1, bby2 = min(max(cy - cut_h // 2, 0), h), min(max(cy + cut_h // 2, 0), h)
    return bbx1, bby1, bbx2, bby2


class FlowerNet(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        return self.fc(self.body(x).flatten(1))


class CutMixTrainer:
    def __init__(self, model, beta=1.0):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        self.beta = torch.distributions.Beta(beta, beta)

    def train_step(self, images, labels):
        lam = float(self.beta.sample())
        rand_index = torch.randperm(images.size(0)).to(images.device)
        bbx1, bby1, bbx2, bby2 = rand_bbox(images.size(), lam)
        images = images.clone()
        images[:, :, bbx1:bbx2, bby1:bby2] = images[rand_index, :, bbx1:bbx2, bby1:bby2]  # XLA: recompile
        lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (images.size(-1) * images.size(-2)))
        self.opt.zero_grad()
        out = self.model(images)
        loss = F.cross_entropy(out, labels) * lam + F.cross_entropy(out, labels[rand_index]) * (1.0 - lam)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    return CutMixTrainer(FlowerNet().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
