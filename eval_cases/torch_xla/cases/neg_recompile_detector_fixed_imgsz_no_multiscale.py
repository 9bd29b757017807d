"""Source: https://github.com/ultralytics/yolov5/issues/16

The same detector trained without `--multi-scale`: the batch is letterboxed to the fixed training
size by the data loader, and the step resizes nothing, so every step has the same input shape.
"""
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


class Trainer:
    def __init__(self, model, opt, multi_scale=False):
        self.model, self.opt, self.multi_scale = model, opt, multi_scale

    def train_step(self, imgs, obj_target):
        self.opt.zero_grad()
        pred = self.model(imgs)
        obj = pred[:, 4::7].mean((2, 3))
        loss = F.binary_cross_entropy_with_logits(obj, obj_target)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
_KEEP = [Trainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(2, 3, 64, 64, generator=g).to(device), torch.rand(2, 3, generator=g).to(device)


def ENTRY(device):
    model = TinyDetector().to(device)
    return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.01)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
