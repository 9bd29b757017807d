"""Source: https://github.com/pytorch/xla/pull/6559

A video denoiser built from 3-D convolutions that pad their borders by reflection,
`nn.Conv3d(..., padding_mode="reflect")`, which calls `F.pad(mode="reflect")` on a 5-D input. The pull
request found `aten::reflection_pad3d` among the ops whose tests passed "silently while falling back to
CPU". torch_xla 2.9.0 no longer falls back here: the case compiles with no `aten::` counter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VideoDenoiser(nn.Module):
    def __init__(self, ch=6):
        super().__init__()
        self.c1 = nn.Conv3d(3, ch, 3, padding=1, padding_mode="reflect")
        self.c2 = nn.Conv3d(ch, ch, 3, padding=1, padding_mode="reflect")
        self.out = nn.Conv3d(ch, 3, 1)

    def forward(self, clip):
        h = F.relu(self.c1(clip))
        h = F.relu(self.c2(h))
        return clip - self.out(h)


def make_train_step(model, opt):
    def train_step(noisy, clean):
        opt.zero_grad()
        loss = F.l1_loss(model(noisy), clean)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    clean = torch.rand(1, 3, 4, 8, 8, generator=g)
    return (clean + 0.1 * torch.randn(1, 3, 4, 8, 8, generator=g)).to(device), clean.to(device)


def ENTRY(device):
    model = VideoDenoiser().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
