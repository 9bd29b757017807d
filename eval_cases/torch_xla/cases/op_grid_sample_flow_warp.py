"""Unsupervised optical-flow training: the predicted flow warps frame 2 onto frame 1 with a bilinear
F.grid_sample (backward warping) and the photometric L1 error is the loss.

Source: https://github.com/pytorch/xla/issues/6581 ([Core ATen Opset] Lower grid_sampler_2d: still
open, the op runs on the CPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def backward_warp(img, flow):
    b, _, h, w = img.shape
    ys, xs = torch.meshgrid(torch.arange(h, device=img.device, dtype=img.dtype),
                            torch.arange(w, device=img.device, dtype=img.dtype), indexing="ij")
    gx = 2.0 * (xs + flow[:, 0]) / (w - 1) - 1.0
    gy = 2.0 * (ys + flow[:, 1]) / (h - 1) - 1.0
    grid = torch.stack([gx, gy], dim=-1)
    return F.grid_sample(img, grid, mode="bilinear", padding_mode="border", align_corners=True)  # XLA: op


class FlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 3, padding=1))

    def forward(self, f1, f2):
        return self.net(torch.cat([f1, f2], 1))


def make_train_step(model, opt):
    def train_step(f1, f2):
        opt.zero_grad()
        flow = model(f1, f2)
        loss = (backward_warp(f2, flow) - f1).abs().mean() + 0.01 * flow.diff(dim=-1).abs().mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    f1 = torch.rand(2, 3, 10, 10, generator=g)
    return f1.to(device), f1.roll(1, dims=-1).to(device)


def ENTRY(device):
    model = FlowNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
