"""Source: https://github.com/ultralytics/yolov5/issues/16

YOLOv5's multi-scale training: each batch is resized to a random image size drawn as
`random.randrange(imgsz * 0.5, imgsz * 1.5 + gs) // gs * gs` (a multiple of the grid stride) with
`F.interpolate` before the forward pass. On an XLA device every new size is a new graph.
"""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, anchors=3, classes=2):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, 2, 1), nn.SiLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 16, 3, 2, 1))
        self.head = nn.Conv2d(16, anchors * (5 + classes), 1)

    def forward(self, x):
        return self.head(self.backbone(x))


class MultiScaleTrainer:
    def __init__(self, model, opt, imgsz=64, gs=8, seed=0):
        self.model, self.opt, self.imgsz, self.gs = model, opt, imgsz, gs
        self.rng = random.Random(seed)

    def train_step(self, imgs, obj_target):
        sz = self.rng.randrange(int(self.imgsz * 0.5), int(self.imgsz * 1.5) + self.gs) // self.gs * self.gs
        sf = sz / max(imgs.shape[2:])
        if sf != 1:
            ns = [math.ceil(s * sf / self.gs) * self.gs for s in imgs.shape[2:]]
            imgs = F.interpolate(imgs, size=ns, mode="bilinear", align_corners=False)  # XLA: recompile
        self.opt.zero_grad()
        pred = self.model(imgs)
        obj = pred[:, 4::7].mean((2, 3))
        loss = F.binary_cross_entropy_with_logits(obj, obj_target)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
_KEEP = [MultiScaleTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(2, 3, 64, 64, generator=g).to(device), torch.rand(2, 3, generator=g).to(device)


def ENTRY(device):
    model = TinyDetector().to(device)
    return MultiScaleTrainer(model, torch.optim.SGD(model.parameters(), lr=0.01)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
