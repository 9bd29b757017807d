"""Source: https://github.com/tenstorrent/tt-xla/issues/3335

An SSD-style default-box generator inside the detection forward: the grid shifts come from
`torch.arange(0, f_k)` without a device (CPU) and are concatenated with box sizes that already
live on the XLA device; the move to the device happens only after the concatenation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DefaultBoxes(nn.Module):
    def __init__(self, sizes=((0.2, 0.2), (0.3, 0.15))):
        super().__init__()
        self.register_buffer("wh_pairs", torch.tensor(sizes))

    def _grid_default_boxes(self, f_k):
        shifts = torch.stack(torch.meshgrid(torch.arange(0, f_k) + 0.5, torch.arange(0, f_k) + 0.5, indexing="ij"), -1)
        shifts = (shifts.reshape(-1, 2) / f_k).repeat_interleave(len(self.wh_pairs), 0)
        wh = self.wh_pairs.repeat(f_k * f_k, 1)
        return torch.cat((shifts, wh), dim=1)  # XLA: host

    def forward(self, feature_map):
        return self._grid_default_boxes(feature_map.size(-1)).to(feature_map.device)


class TinySSD(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.loc = nn.Conv2d(8, 2 * 4, 3, padding=1)
        self.anchors = DefaultBoxes()

    def forward(self, img):
        feat = F.relu(self.backbone(img))
        loc = self.loc(feat).permute(0, 2, 3, 1).reshape(img.size(0), -1, 4)
        return self.anchors(feat)[None] + 0.1 * loc


@torch.no_grad()
def detect(model, img):
    return model(img)


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(1, 3, 8, 8, generator=g).to(device),)


def ENTRY(device):
    return functools.partial(detect, TinySSD().to(device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
