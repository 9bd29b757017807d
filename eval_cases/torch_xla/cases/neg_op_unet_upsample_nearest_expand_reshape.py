"""Source: https://github.com/pytorch/xla/issues/5058

The diffusion UNet with the reporter's workaround: "I copied diffusers locally and changed the upsample
code so that the results stayed the same and the `aten::...` went away". The nearest 2x upsample is
written as a broadcast and a reshape, which gives the same values and has an ordinary gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def nearest_upsample_2x(hidden):
    b, c, h, w = hidden.shape
    return hidden[:, :, :, None, :, None].expand(b, c, h, 2, w, 2).reshape(b, c, h * 2, w * 2)


class Upsample2D(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, hidden):
        return self.conv(nearest_upsample_2x(hidden))


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.inp = nn.Conv2d(4, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch * 2, 3, stride=2, padding=1)
        self.mid = nn.Conv2d(ch * 2, ch * 2, 3, padding=1)
        self.up = Upsample2D(ch * 2)
        self.out = nn.Conv2d(ch * 3, 4, 3, padding=1)
        self.t_proj = nn.Linear(1, ch * 2)

    def forward(self, latents, t):
        h0 = F.silu(self.inp(latents))
        h = F.silu(self.down(h0)) + self.t_proj(t[:, None])[:, :, None, None]
        h = F.silu(self.mid(h))
        h = self.up(h)
        return self.out(torch.cat([h, h0], dim=1))


def make_train_step(unet, opt):
    def train_step(latents, noise, t):
        opt.zero_grad()
        noisy = latents * (1 - t)[:, None, None, None].sqrt() + noise * t[:, None, None, None].sqrt()
        loss = F.mse_loss(unet(noisy, t), noise)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    lat = torch.randn(2, 4, 8, 8, generator=g)
    return lat.to(device), torch.randn(2, 4, 8, 8, generator=g).to(device), torch.rand(2, generator=g).to(device)


def ENTRY(device):
    unet = TinyUNet().to(device)
    return make_train_step(unet, torch.optim.AdamW(unet.parameters(), lr=1e-4)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
