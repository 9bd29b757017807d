"""Source: https://github.com/pytorch/xla/issues/7267

A super-resolution training step whose head upsamples the low-resolution features with
`F.interpolate(..., scale_factor=2, mode="bicubic")` before the reconstruction conv, as in the report
("xla gpu train ResizeBicubic is not supported"). Bicubic resizing has no XLA lowering in the
reporter's build; the step runs it (and its backward) every iteration.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SRNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1))
        self.tail = nn.Conv2d(c, 3, 3, padding=1)

    def forward(self, lr):
        feat = self.body(lr)
        up = F.interpolate(feat, scale_factor=2, mode="bicubic", align_corners=False)  # XLA: op
        return self.tail(up)


def make_train_step(model, opt):
    def train_step(lr, hr):
        opt.zero_grad()
        loss = F.l1_loss(model(lr), hr)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    hr = torch.rand(2, 3, 16, 16, generator=g)
    return F.avg_pool2d(hr, 2).to(device), hr.to(device)


def ENTRY(device):
    model = SRNet().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
