"""Source: https://github.com/pytorch/xla/issues/2155

A diffusion U-Net residual block with `nn.GroupNorm(4, ch)` and a timestep embedding, trained on an
XLA device. The issue ("Lower group_norm to XLA") followed a PyTorch change that made group norm a
composite of lowered ops; a user who asked whether their GroupNorm ResNet fell back was told it
should not. A near miss of the fallback cases: no `aten::` counter is expected.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, ch=16, t_dim=8):
        super().__init__()
        self.norm1 = nn.GroupNorm(4, ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.t_proj = nn.Linear(t_dim, ch)
        self.norm2 = nn.GroupNorm(4, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x, t_emb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.t_proj(t_emb)[:, :, None, None]
        return x + self.conv2(F.silu(self.norm2(h)))


class TinyDenoiser(nn.Module):
    def __init__(self, ch=16, t_dim=8):
        super().__init__()
        self.t_dim = t_dim
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.block = ResBlock(ch, t_dim)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        freqs = torch.arange(self.t_dim // 2, device=x.device, dtype=torch.float32)
        ang = t[:, None] * torch.exp(-freqs * 0.5)[None]
        t_emb = torch.cat([ang.sin(), ang.cos()], dim=1)
        return self.out(self.block(self.inp(x), t_emb))


def make_step(model, opt):
    def step(x0, noise, t):
        opt.zero_grad()
        a = torch.cos(t * 0.5)[:, None, None, None]
        xt = a * x0 + (1 - a * a).sqrt() * noise
        loss = F.mse_loss(model(xt, t), noise)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    x0 = torch.randn(2, 3, 8, 8, generator=g)
    noise = torch.randn(2, 3, 8, 8, generator=g)
    t = torch.rand(2, generator=g) * 3.0
    return x0.to(device), noise.to(device), t.to(device)


def ENTRY(device):
    model = TinyDenoiser().to(device)
    return make_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
