"""Source: https://github.com/pytorch/xla/pull/6588

A small vocoder-style 1-D conv stack trained on waveform frames, each conv with
`padding_mode="reflect"` (as MelGAN/HiFi-GAN generators pad). The report lowered
`reflection_pad1d` and its backward after a test found them silently falling back to the CPU, so the
step compiles as one graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvStack(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.inp = nn.Conv1d(1, c, 7, padding=3, padding_mode="reflect")
        self.mid = nn.Conv1d(c, c, 5, padding=2, padding_mode="reflect")
        self.out = nn.Conv1d(c, 1, 7, padding=3, padding_mode="reflect")

    def forward(self, wav):
        return torch.tanh(self.out(F.leaky_relu(self.mid(F.leaky_relu(self.inp(wav), 0.2)), 0.2)))


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
    clean = torch.sin(torch.linspace(0, 12, 64)).repeat(2, 1, 1) * torch.rand(2, 1, 1, generator=g)
    return (clean + 0.1 * torch.randn(2, 1, 64, generator=g)).to(device), clean.to(device)


def ENTRY(device):
    model = ConvStack().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
