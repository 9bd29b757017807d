"""1-D convolutional decoder that doubles the time axis with nearest-neighbour F.interpolate before each conv.

Source: https://github.com/pytorch/xla/issues/4985 (a speech model on TPU reports
aten::upsample_nearest1d as not lowered).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class UpDecoder(nn.Module):
    def __init__(self, c_in=12, c=16):
        super().__init__()
        self.inp = nn.Conv1d(c_in, c, 3, padding=1)
        self.ups = nn.ModuleList([nn.Conv1d(c, c, 3, padding=1) for _ in range(2)])
        self.out = nn.Conv1d(c, 1, 3, padding=1)

    def forward(self, z):
        h = F.gelu(self.inp(z))
        for conv in self.ups:
            h = F.interpolate(h, scale_factor=2, mode="nearest")  # XLA: op
            h = F.gelu(conv(h))
        return self.out(h)


def make_train_step(model, opt):
    def train_step(z, target):
        opt.zero_grad()
        loss = F.mse_loss(model(z), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 12, 8, generator=g).to(device), torch.randn(2, 1, 32, generator=g).to(device)


def ENTRY(device):
    model = UpDecoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
