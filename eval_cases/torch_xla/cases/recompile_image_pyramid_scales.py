"""MTCNN-style proposal network run over an image pyramid whose scales are computed in Python from each
image's size, so every input size yields a different list of resized shapes.

Source: https://github.com/pytorch/xla/issues/1521 (MTCNN inference on TPU gets slower with each new batch;
its detect_face logic builds a size-dependent pyramid).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3), nn.PReLU(8), nn.Conv2d(8, 8, 3), nn.PReLU(8))
        self.prob = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        return self.prob(self.body(x)).softmax(1)[:, 1]


def make_detect_step(pnet, min_size=6, factor=0.7):
    @torch.no_grad()
    def detect(img):
        h, w = img.shape[-2:]
        scales, m = [], 12.0 / min_size
        side = min(h, w) * m
        while side >= 12:
            scales.append(m)
            m, side = m * factor, side * factor
        best = []
        for s in scales:
            resized = F.interpolate(img, size=(int(h * s), int(w * s)), mode="bilinear", align_corners=False)  # XLA: recompile
            best.append(pnet(resized).amax((1, 2)))
        return torch.stack(best, 1).max(1).values
    return detect


# --- oracle ---
def _batch(device, seed, size):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(1, 3, size, size, generator=g).to(device),)


def ENTRY(device):
    pnet = PNet().to(device).eval()
    return make_detect_step(pnet), _batch(device, 0, 12)


def ALT_ARGS(device):
    return [_batch(device, 1, 14), _batch(device, 2, 16)]
