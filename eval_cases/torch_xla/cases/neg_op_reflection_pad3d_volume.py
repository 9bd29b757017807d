"""3-D U-Net-style encoder block for volumetric segmentation with reflection padding (F.pad mode="reflect"
on 5-D inputs) before each Conv3d.

Source: https://github.com/pytorch/xla/issues/6577 ([Core ATen Opset] Lower aten_reflection_pad1d and
aten_reflection_pad3d; closed by the lowering PR).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReflectConv3d(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv3d(c_in, c_out, 3)

    def forward(self, x):
        return self.conv(F.pad(x, (1, 1, 1, 1, 1, 1), mode="reflect"))


class VolumeSeg(nn.Module):
    def __init__(self, c=4, n_classes=2):
        super().__init__()
        self.block = nn.Sequential(ReflectConv3d(1, c), nn.ReLU(), ReflectConv3d(c, c), nn.ReLU())
        self.out = nn.Conv3d(c, n_classes, 1)

    def forward(self, vol):
        return self.out(self.block(vol))


def make_train_step(model, opt):
    def train_step(vol, seg):
        opt.zero_grad()
        loss = F.cross_entropy(model(vol), seg)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, 1, 6, 6, 6, generator=g).to(device), torch.randint(0, 2, (1, 6, 6, 6), generator=g).to(device)


def ENTRY(device):
    model = VolumeSeg().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
