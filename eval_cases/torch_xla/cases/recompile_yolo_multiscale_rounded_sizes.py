"""YOLO-style multi-scale training: a random image size rounded to the grid stride, a scale factor from it,
and the new height and width computed per dimension in a list comprehension before `F.interpolate`.

Source: https://github.com/ultralytics/yolov5/blob/master/train.py (`--multi-scale`: `sz = random.randrange(...)
// gs * gs`, `ns = [math.ceil(x * sf / gs) * gs for x in imgs.shape[2:]]`, `nn.functional.interpolate(imgs,
size=ns, ...)`); https://github.com/roboflow/rf-detr/pull/1436 (multi-scale training is one graph per scale on XLA).
"""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, n_out=4):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.head = nn.Conv2d(8, n_out, 1)

    def forward(self, imgs):
        return self.head(torch.relu(self.conv(imgs)))


def make_train_step(model, opt, imgsz=16, gs=4):
    rng = random.Random(1)

    def train_step(imgs, target):
        sz = rng.randrange(int(imgsz * 0.5), int(imgsz * 1.5) + gs) // gs * gs
        sf = sz / max(imgs.shape[2:])
        if sf != 1:
            ns = [math.ceil(x * sf / gs) * gs for x in imgs.shape[2:]]
            imgs = F.interpolate(imgs, size=ns, mode="bilinear", align_corners=False)  # XLA: recompile
        opt.zero_grad()
        pred = model(imgs).mean((2, 3))
        loss = F.mse_loss(pred, target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(2, 3, 16, 16, generator=g).to(device), torch.randn(2, 4, generator=g).to(device)


def ENTRY(device):
    model = Backbone().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
