"""Radar/IQ classifier: the I and Q channels are combined with torch.complex and the magnitude and phase
of the complex signal feed an MLP.

Source: https://github.com/pytorch/xla/issues/3080 (Colab TPU training slower than a GPU;
pt-xla-profiler lists an op on complex numbers, aten::sgn_out, as not lowered).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class IQClassifier(nn.Module):
    def __init__(self, n=16, n_classes=3):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * n, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, i_ch, q_ch):
        z = torch.complex(i_ch, q_ch)  # XLA: op
        feats = torch.cat([z.abs(), torch.angle(z)], dim=-1)
        return self.mlp(feats)


def make_train_step(model, opt):
    def train_step(i_ch, q_ch, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(i_ch, q_ch), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4, 16, generator=g).to(device), torch.randn(4, 16, generator=g).to(device),
            torch.randint(0, 3, (4,), generator=g).to(device))


def ENTRY(device):
    model = IQClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
