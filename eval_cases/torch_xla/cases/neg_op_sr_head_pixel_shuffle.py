"""Source: https://github.com/pytorch/xla/issues/7267

The same super-resolution training step with the usual learned upsampler instead of bicubic
resizing: a conv to 4x the channels and `nn.PixelShuffle(2)` (a reshape and a transpose), which
XLA compiles like any other view.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SRNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1))
        self.up = nn.Sequential(nn.Conv2d(c, 4 * c, 3, padding=1), nn.PixelShuffle(2))
        self.tail = nn.Conv2d(c, 3, 3, padding=1)

    def forward(self, lr):
        return self.tail(self.up(self.body(lr)))


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
