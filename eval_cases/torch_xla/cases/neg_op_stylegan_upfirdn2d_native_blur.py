"""Source: https://github.com/rosinality/stylegan2-pytorch/issues/122

"About how to use this code with TPU": the CUDA extensions `upfirdn2d` and `fused_leaky_relu` do
not build for a TPU, and the author points at the pure-PyTorch branches of `op/upfirdn2d.py` and
`op/fused_act.py`. A small StyleGAN2 discriminator trained on an XLA device with those native
versions: the blur is `F.pad` plus negative-pad cropping by slices computed from the static shapes
and a depthwise `conv2d` with the flipped FIR kernel, and the activation is `leaky_relu(x + bias)
* sqrt(2)`; every op lowers and the shapes never change.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def upfirdn2d_native(x, kernel, up=1, down=1, pad=(0, 0, 0, 0)):
    pad_x0, pad_x1, pad_y0, pad_y1 = pad
    b, c, h, w = x.shape
    kh, kw = kernel.shape
    out = x.reshape(b * c, h, 1, w, 1, 1)
    out = F.pad(out, [0, 0, 0, up - 1, 0, 0, 0, up - 1])
    out = out.reshape(b * c, h * up, w * up, 1)
    out = F.pad(out, [0, 0, max(pad_x0, 0), max(pad_x1, 0), max(pad_y0, 0), max(pad_y1, 0)])
    y0, y1 = max(-pad_y0, 0), out.shape[1] - max(-pad_y1, 0)
    x0, x1 = max(-pad_x0, 0), out.shape[2] - max(-pad_x1, 0)
    out = out[:, y0:y1, x0:x1, :]
    out = out.permute(0, 3, 1, 2).reshape(-1, 1, h * up + pad_y0 + pad_y1, w * up + pad_x0 + pad_x1)
    out = F.conv2d(out, torch.flip(kernel, [0, 1]).view(1, 1, kh, kw))
    out = out.reshape(b, c, out.shape[2], out.shape[3])
    return out[:, :, ::down, ::down]


def fused_leaky_relu(x, bias, negative_slope=0.2, scale=2 ** 0.5):
    return F.leaky_relu(x + bias.view(1, -1, 1, 1), negative_slope) * scale


class Blur(nn.Module):
    def __init__(self, k=(1, 3, 3, 1), pad=(2, 1, 2, 1)):
        super().__init__()
        k = torch.tensor(k, dtype=torch.float32)
        k = k[None, :] * k[:, None]
        self.register_buffer("kernel", k / k.sum())
        self.pad = pad

    def forward(self, x):
        return upfirdn2d_native(x, self.kernel, pad=self.pad)


class DownBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.blur = Blur()
        self.weight = nn.Parameter(torch.randn(cout, cin, 3, 3))
        self.bias = nn.Parameter(torch.zeros(cout))
        self.scale = 1 / math.sqrt(cin * 9)

    def forward(self, x):
        out = F.conv2d(self.blur(x), self.weight * self.scale, stride=2)
        return fused_leaky_relu(out, self.bias)


class TinyDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(DownBlock(3, 8), DownBlock(8, 16))
        self.out = nn.Linear(16 * 3 * 3, 1)

    def forward(self, img):
        return self.out(self.blocks(img).flatten(1))


class DTrainer:
    def __init__(self, disc):
        self.disc = disc
        self.opt = torch.optim.Adam(disc.parameters(), lr=2e-3, betas=(0.0, 0.99))

    def d_step(self, real, fake):
        self.opt.zero_grad()
        loss = F.softplus(self.disc(fake)).mean() + F.softplus(-self.disc(real)).mean()
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    real, fake = torch.randn(2, 4, 3, 16, 16, generator=g)
    return real.to(device), fake.to(device)


def ENTRY(device):
    return DTrainer(TinyDiscriminator().to(device)).d_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
