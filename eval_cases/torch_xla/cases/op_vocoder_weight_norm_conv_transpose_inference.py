"""Source: https://github.com/pytorch/xla/issues/3817

A HiFi-GAN-style vocoder serving mel spectrograms on an XLA device under `torch.no_grad()`. Every
upsampling `ConvTranspose1d` and residual `Conv1d` is wrapped in `nn.utils.weight_norm` with the
default `dim=0`, so each forward recomputes the weight through `torch._weight_norm`. The report's
profiler listed `aten::_weight_norm_interface` among the ops "not lowered".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import weight_norm


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.c1 = weight_norm(nn.Conv1d(ch, ch, 3, padding=1))  # XLA: op
        self.c2 = weight_norm(nn.Conv1d(ch, ch, 3, padding=1))  # XLA: op

    def forward(self, x):
        return x + self.c2(F.leaky_relu(self.c1(F.leaky_relu(x, 0.1)), 0.1))


class Generator(nn.Module):
    def __init__(self, n_mels=8, ch=16):
        super().__init__()
        self.pre = weight_norm(nn.Conv1d(n_mels, ch, 7, padding=3))  # XLA: op
        self.up = weight_norm(nn.ConvTranspose1d(ch, ch // 2, 4, stride=2, padding=1))  # XLA: op
        self.res = ResBlock(ch // 2)
        self.post = weight_norm(nn.Conv1d(ch // 2, 1, 7, padding=3))  # XLA: op

    def forward(self, mel):
        x = self.pre(mel)
        x = self.res(self.up(F.leaky_relu(x, 0.1)))
        return torch.tanh(self.post(F.leaky_relu(x, 0.1))).squeeze(1)


class Vocoder:
    def __init__(self, generator):
        self.generator = generator.eval()

    @torch.no_grad()
    def synthesize(self, mel):
        return self.generator(mel)


# --- oracle ---
_KEEP = [Vocoder]


def _mel(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 8, 20, generator=g),)


def ENTRY(device):
    voc = Vocoder(Generator().to(device))
    return voc.synthesize, tuple(t.to(device) for t in _mel(device, 0))


def ALT_ARGS(device):
    return [tuple(t.to(device) for t in _mel(device, s)) for s in (1, 2)]
