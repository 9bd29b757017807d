"""HiFi-GAN-style residual block whose Conv1d layers are wrapped in weight_norm, trained with an L1 loss.

Source: https://github.com/pytorch/xla/issues/4985 (SO-VITS on TPU: aten::_weight_norm_interface and
its backward are among the ops not lowered).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import weight_norm


class ResBlock1(nn.Module):
    def __init__(self, ch=16, k=3, dilations=(1, 3)):
        super().__init__()
        self.convs = nn.ModuleList(
            weight_norm(nn.Conv1d(ch, ch, k, dilation=d, padding=d * (k - 1) // 2)) for d in dilations)  # XLA: op

    def forward(self, x):
        for c in self.convs:
            x = x + c(F.leaky_relu(x, 0.1))
        return x


class TinyGenerator(nn.Module):
    def __init__(self, n_mels=8, ch=16):
        super().__init__()
        self.pre = nn.Conv1d(n_mels, ch, 5, padding=2)
        self.block = ResBlock1(ch)
        self.post = nn.Conv1d(ch, 1, 5, padding=2)

    def forward(self, mel):
        return torch.tanh(self.post(self.block(self.pre(mel))))


def make_train_step(model, opt):
    def train_step(mel, wav):
        opt.zero_grad()
        loss = F.l1_loss(model(mel), wav)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 8, 32, generator=g).to(device), torch.rand(2, 1, 32, generator=g).mul(2).sub(1).to(device)


def ENTRY(device):
    model = TinyGenerator().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4, betas=(0.8, 0.99))
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
